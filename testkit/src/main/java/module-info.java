/**
 * The contract suite every backend runs, and the fakes and fixtures tests share. Open to JUnit,
 * which runs the suite's package-private test methods by reflection.
 */
module dev.remotepath.testkit {
    requires transitive dev.remotepath;
    requires transitive org.junit.jupiter.api;
    requires org.junit.jupiter.params;
    requires org.assertj.core;
    requires dev.remotepath.nio;

    exports dev.remotepath.testkit;

    opens dev.remotepath.testkit to org.junit.platform.commons;
}
