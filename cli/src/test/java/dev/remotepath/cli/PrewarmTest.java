package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrewarmTest {

    @Test
    void theSshLibraryWarmedIsTheOneTheCommandWillUse() {
        assertThat(Prewarm.workFor(new String[] {"sync", "/t", "sftp://h/t"})).isEqualTo(Prewarm.Work.MINA);
        assertThat(Prewarm.workFor(new String[] {"--sftp-client=sshj", "sync", "/t", "sftp://h/t"}))
                .isEqualTo(Prewarm.Work.SSHJ);
        assertThat(Prewarm.workFor(new String[] {"--sftp-client", "sshj", "ls", "sftp://h/"})).isEqualTo(Prewarm.Work.SSHJ);
        assertThat(Prewarm.workFor(new String[] {"--sftp-client=sshj", "--sftp-client=mina", "ls", "sftp://h/"}))
                .as("the last value wins").isEqualTo(Prewarm.Work.MINA);
        assertThat(Prewarm.workFor(new String[] {"--sftp-client=sshj", "ls", "/tmp"})).as("no SFTP URI")
                .isEqualTo(Prewarm.Work.NONE);
        assertThat(Prewarm.workFor(new String[] {"--sftp-client"})).isEqualTo(Prewarm.Work.NONE);
    }
}
