package dev.remotepath.nio;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Path} of a {@link RemoteNioFileSystem}: '/'-separated names, absolute or relative,
 * kept as given (as NIO does, {@code ..} goes only when {@link #normalize()} is asked). I/O goes
 * through the {@link RemotePath} of the same location. A path handed out by a directory stream
 * carries what the listing said of it, so reading its attributes costs no request.
 */
final class RemoteNioPath implements Path {

    private final RemoteNioFileSystem fs;
    private final boolean absolute;
    private final String[] names;
    /** What the listing that produced this path said of it; empty for a path made any other way. */
    private final Optional<FileStat> listed;

    RemoteNioPath(RemoteNioFileSystem fs, boolean absolute, String[] names, Optional<FileStat> listed) {
        this.fs = fs;
        this.absolute = absolute;
        this.names = names;
        this.listed = listed;
    }

    /** Parses '/'-separated text: empty names (doubled or trailing slashes) are dropped; NUL is refused. */
    static RemoteNioPath parse(RemoteNioFileSystem fs, String text) {
        if (text.indexOf('\0') >= 0) {
            throw new InvalidPathException(text.replace("\0", "\\0"), "path contains NUL");
        }
        List<String> out = new ArrayList<>();
        for (String n : text.split("/")) {
            if (!n.isEmpty()) {
                out.add(n);
            }
        }
        return new RemoteNioPath(fs, text.startsWith("/"), out.toArray(String[]::new), Optional.empty());
    }

    /** The same path, carrying what a listing said of it. */
    RemoteNioPath withListed(FileStat stat) {
        return new RemoteNioPath(fs, absolute, names, Optional.of(stat));
    }

    Optional<FileStat> listed() {
        return listed;
    }

    /** The location as a RemotePath of the backend (absolute: a relative path is resolved against the root). */
    RemotePath remote() {
        return RemotePath.of(fs.remote(), "/" + String.join("/", names));
    }

    static RemoteNioPath cast(Path p) {
        if (p == null) {
            throw new NullPointerException("path");
        }
        if (!(p instanceof RemoteNioPath r)) {
            throw new ProviderMismatchException(p + " is not a RemotePath NIO path");
        }
        return r;
    }

    private RemoteNioPath sameFs(Path other) {
        RemoteNioPath o = cast(other);
        if (o.fs != fs) {
            throw new ProviderMismatchException(other + " is on another file system than " + this);
        }
        return o;
    }

    private RemoteNioPath of(boolean abs, String[] n) {
        return new RemoteNioPath(fs, abs, n, Optional.empty());
    }

    @Override
    public RemoteNioFileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return absolute;
    }

    @Override
    public Path getRoot() {
        return absolute ? of(true, new String[0]) : null;
    }

    @Override
    public Path getFileName() {
        return names.length == 0 ? null : of(false, new String[] {names[names.length - 1]});
    }

    @Override
    public Path getParent() {
        if (names.length == 0 || (names.length == 1 && !absolute)) {
            return names.length == 1 && absolute ? getRoot() : null;
        }
        return of(absolute, Arrays.copyOf(names, names.length - 1));
    }

    @Override
    public int getNameCount() {
        return names.length;
    }

    @Override
    public Path getName(int index) {
        if (index < 0 || index >= names.length) {
            throw new IllegalArgumentException("no name " + index + " in " + this);
        }
        return of(false, new String[] {names[index]});
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        if (beginIndex < 0 || endIndex > names.length || beginIndex >= endIndex) {
            throw new IllegalArgumentException("no names " + beginIndex + ".." + endIndex + " in " + this);
        }
        return of(false, Arrays.copyOfRange(names, beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        if (!(other instanceof RemoteNioPath o) || o.fs != fs || o.absolute != absolute || o.names.length > names.length) {
            return false;
        }
        return Arrays.equals(names, 0, o.names.length, o.names, 0, o.names.length);
    }

    @Override
    public boolean endsWith(Path other) {
        if (!(other instanceof RemoteNioPath o) || o.fs != fs || o.names.length > names.length
                || (o.absolute && (!absolute || o.names.length != names.length))) {
            return false;
        }
        return Arrays.equals(names, names.length - o.names.length, names.length, o.names, 0, o.names.length);
    }

    @Override
    public Path normalize() {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (n.equals(".")) {
                continue;
            }
            if (n.equals("..") && !out.isEmpty() && !out.getLast().equals("..")) {
                out.removeLast();
            } else if (!(n.equals("..") && absolute)) {
                out.add(n);
            }
        }
        return of(absolute, out.toArray(String[]::new));
    }

    @Override
    public Path resolve(Path other) {
        RemoteNioPath o = sameFs(other);
        if (o.absolute) {
            return o;
        }
        if (o.names.length == 0) {
            return this;
        }
        String[] joined = Arrays.copyOf(names, names.length + o.names.length);
        System.arraycopy(o.names, 0, joined, names.length, o.names.length);
        return of(absolute, joined);
    }

    @Override
    public Path resolve(String other) {
        return resolve(parse(fs, other));
    }

    @Override
    public Path relativize(Path other) {
        RemoteNioPath o = sameFs(other);
        if (o.absolute != absolute) {
            throw new IllegalArgumentException("cannot relativize " + other + " against " + this
                    + ": one is absolute, the other not");
        }
        int common = 0;
        while (common < names.length && common < o.names.length && names[common].equals(o.names[common])) {
            common++;
        }
        List<String> out = new ArrayList<>();
        for (int i = common; i < names.length; i++) {
            out.add("..");
        }
        out.addAll(Arrays.asList(o.names).subList(common, o.names.length));
        return of(false, out.toArray(String[]::new));
    }

    @Override
    public URI toUri() {
        return remote().toUri();
    }

    @Override
    public Path toAbsolutePath() {
        return absolute ? this : of(true, names); // the working directory of a remote file system is its root
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
        RemotePath real = fs.remote().realPath(remote());
        return parse(fs, real.pathString());
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("watching is not supported by RemotePath file systems");
    }

    @Override
    public int compareTo(Path other) {
        return toString().compareTo(cast(other).toString());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RemoteNioPath p && p.fs == fs && p.absolute == absolute && Arrays.equals(p.names, names);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fs, absolute, Arrays.hashCode(names));
    }

    @Override
    public String toString() {
        String joined = String.join("/", names);
        return absolute ? "/" + joined : joined;
    }
}
