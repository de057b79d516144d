/** {@link dev.remotepath.syncer.PathSyncer}, the one-way tree mirror, and its scripting binding. */
module dev.remotepath.syncer {
    requires transitive dev.remotepath;

    exports dev.remotepath.syncer;
    exports dev.remotepath.syncer.scripting;
}
