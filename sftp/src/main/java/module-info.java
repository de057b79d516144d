/**
 * The {@code sftp:} backend, on Apache MINA SSHD or sshj. MINA comes as {@code sshd-osgi}
 * (sshd-core and sshd-common in one jar), since the two jars split packages.
 */
module dev.remotepath.sftp {
    requires transitive dev.remotepath;
    requires org.apache.sshd.osgi;
    requires org.apache.sshd.sftp;
    requires com.hierynomus.sshj;
    requires org.slf4j;
    requires jdk.net;

    exports dev.remotepath.sftp;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.sftp.SftpFileSystemProvider;
}
