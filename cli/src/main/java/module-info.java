/**
 * The {@code rpath} command line. The backends it reaches only through their schemes (mem, and
 * local for {@code file:} URIs) are bound as services; the script engines likewise. A local path
 * typed without a scheme is made by the local backend directly (no provider lookup at start).
 */
module dev.remotepath.cli {
    requires dev.remotepath;
    requires dev.remotepath.syncer;
    requires dev.remotepath.local;
    requires dev.remotepath.http;
    requires dev.remotepath.sftp;
    requires dev.remotepath.s3;
    requires dev.remotepath.azure;
    requires dev.remotepath.webdav;
    requires dev.remotepath.ftp;
    requires dev.remotepath.archive;
    requires org.apache.sshd.osgi;
    requires org.apache.sshd.sftp;
    requires java.scripting;
    requires jdk.httpserver;

    // A script engine links a binding's calls only through packages exported to everyone.
    exports dev.remotepath.cli.scripting;
    // SyncCommandLine: rpath sync's arguments for other mains (SparkSyncMain).
    exports dev.remotepath.cli;
}
