/** Micrometer meters from RemotePath's file system and sync events. */
module dev.remotepath.micrometer {
    requires transitive dev.remotepath;
    requires transitive dev.remotepath.syncer;
    requires transitive micrometer.core;

    exports dev.remotepath.micrometer;
}
