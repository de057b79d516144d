package dev.remotepath.tree;

import dev.remotepath.RemotePath;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The temporaries of copies under way in this JVM. When the JVM is asked to end (SIGTERM,
 * Ctrl-C, {@code System.exit}) a shutdown hook deletes those still there, so a killed
 * {@code rpath cp} or {@code sync} leaves no {@code .rptmp} file behind; a SIGKILL leaves them,
 * and the next sync removes them ({@link FileTransfer#isTemporary}).
 */
public final class Temporaries {

    private static final Set<RemotePath> LIVE = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOKED = new AtomicBoolean();

    private Temporaries() {
    }

    /** A temporary about to be created; {@link #release} it once renamed into place or deleted. */
    public static void register(RemotePath temporary) {
        if (HOOKED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(Temporaries::removeAll, "remotepath-temporaries"));
        }
        LIVE.add(temporary);
    }

    public static void release(RemotePath temporary) {
        LIVE.remove(temporary);
    }

    /** Best effort: the JVM is ending, and a file system may already be closing. */
    private static void removeAll() {
        for (RemotePath p : LIVE) {
            try {
                p.fileSystem().deleteFile(p);
            } catch (java.io.IOException | RuntimeException gone) {
                // renamed away meanwhile, or its file system is closed: nothing more to do
            }
        }
    }
}
