package dev.remotepath.ftp;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ListedEntry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.Charset;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.commons.net.ftp.FTPFile;
import org.apache.commons.net.ftp.FTPReply;

/**
 * Directory listings: {@code MLSD} where the server has it, else {@code CWD} into the directory
 * and {@code LIST -a} there ({@code LIST} of a missing path is an empty answer on some servers,
 * and of a file that file's own line, so the {@code CWD} says first which it is). An answer is
 * read in full, within {@link #MAX_BYTES} and {@link FtpOptions#readTimeout()} per stall and
 * ten of them in all, and accepted only after the transfer's final reply is positive. A line that
 * cannot be parsed fails the listing: an entry left out would be deleted by a sync.
 */
final class FtpListings {

    /** The largest listing read: 64 MiB is some 500,000 MLSD entries. */
    static final int MAX_BYTES = 64 << 20;

    private final FtpOptions options;

    FtpListings(FtpOptions options) {
        this.options = options;
    }

    private boolean mlsd(FtpConnection c) {
        return switch (options.listing()) {
            case AUTO -> c.mlst;
            case MLSD -> true;
            case LIST -> false;
        };
    }

    List<ListedEntry> list(FtpFileSystem fs, FtpConnection c, RemotePath directory) throws IOException {
        String w = FtpFileSystem.wire(c, directory);
        boolean mlsd = mlsd(c);
        String command = mlsd ? "MLSD" : "LIST";
        // LIST of a missing path is an empty answer on some servers, of a file that file's line;
        // MINA FtpServer's MLSD is the same, and hides dot files unless asked with -a
        boolean cwd = !mlsd || c.minaMlsd;
        if (cwd) {
            if (!FTPReply.isPositiveCompletion(c.client.sendCommand("CWD", w))) {
                throw notListable(fs, c, directory, command);
            }
            c.cwd = w;
        }
        String arg = !mlsd ? (c.listAll ? "-a" : null) : c.minaMlsd ? "-a" : w;
        InputStream in = c.openData(command, arg);
        if (in == null) {
            throw notListable(fs, c, directory, command);
        }
        byte[] body = read(c, in, directory, command);
        if (!c.completeTransfer()) {
            IOException e = FtpErrors.of(command, c.client.getReplyCode(), FtpConnection.reply(c.client), directory);
            throw new FileSystemException(directory.toString(), null, "the listing was cut short: " + e.getMessage());
        }
        Charset cs = Charset.forName(c.client.getControlEncoding());
        // Bytes that are not UTF-8 are kept as escapes (NameBytes), not made U+FFFD: such a name
        // is then one the commands refuse by name, never one that reads as another file's.
        String text = cs.equals(java.nio.charset.StandardCharsets.UTF_8) ? dev.remotepath.NameBytes.decode(body)
                : new String(body, cs);
        List<ListedEntry> entries = new ArrayList<>();
        try {
            if (mlsd) {
                boolean self = false;
                for (String line : lines(text)) {
                    FtpEntries.Entry e = FtpEntries.mlsx(line);
                    self |= e.selfOrParent(); // a cdir or pdir entry: what was listed is a directory
                    add(entries, e);
                }
                if (!self && !cwd) {
                    // no cdir entry to say it listed a directory: ask, as for a server that lists a file's own line
                    Optional<FileStat> st = fs.find(c, directory);
                    if (st.isEmpty()) {
                        throw new NoSuchFileException(directory.toString());
                    }
                    if (!st.get().isDirectory()) {
                        throw new NotDirectoryException(directory.toString());
                    }
                }
            } else {
                List<String> lines = new ArrayList<>();
                try (BufferedReader r = new BufferedReader(new StringReader(text))) {
                    for (String e = c.listParser.readNextEntry(r); e != null; e = c.listParser.readNextEntry(r)) {
                        lines.add(e);
                    }
                }
                c.listParser.preParse(lines); // drops a Unix "total n" line
                for (String line : lines) {
                    if (line.isBlank()) {
                        continue;
                    }
                    FTPFile f = c.listParser.parseFTPEntry(line);
                    if (f != null) {
                        f.setRawListing(line);
                    }
                    if (f == null) {
                        throw new FtpEntries.MalformedException("a LIST line no parser understands: " + FtpEntries.shown(line));
                    }
                    add(entries, FtpEntries.list(f));
                }
            }
        } catch (FtpEntries.MalformedException e) {
            throw new FileSystemException(directory.toString(), null, command + ": " + e.getMessage());
        }
        return entries;
    }

    /**
     * The non-empty lines of an MLSD answer, each without its LF and one CR before it: what
     * {@code split("\r?\n")} gave, less the empty ones. By hand, because a no-op sync reads
     * one such answer per directory and the regex was a fifth of its samples on C1.
     */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        int n = text.length();
        while (start <= n) {
            int lf = text.indexOf('\n', start);
            int end = lf < 0 ? n : lf;
            int cut = lf >= 0 && end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
            if (cut > start) {
                lines.add(text.substring(start, cut));
            }
            if (lf < 0) {
                break;
            }
            start = lf + 1;
        }
        return lines;
    }

    private static void add(List<ListedEntry> entries, FtpEntries.Entry e) {
        if (!e.selfOrParent()) {
            entries.add(new ListedEntry(e.name(), e.stat()));
        }
    }

    /** Why a directory could not be listed: missing, a file, or the server's reason. */
    private static IOException notListable(FtpFileSystem fs, FtpConnection c, RemotePath directory, String command)
            throws IOException {
        IOException reason = FtpErrors.of(command, c.client.getReplyCode(), FtpConnection.reply(c.client), directory);
        Optional<FileStat> st = fs.find(c, directory);
        if (st.isEmpty()) {
            return new NoSuchFileException(directory.toString());
        }
        if (!st.get().isDirectory()) {
            return new NotDirectoryException(directory.toString());
        }
        return reason;
    }

    /** The whole answer, or a failure naming the bound it crossed; the connection is dropped then. */
    private byte[] read(FtpConnection c, InputStream in, RemotePath directory, String command) throws IOException {
        long deadline = System.nanoTime() + FtpConnection.wholeAnswerBound(options).toNanos();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[64 * 1024];
        try (in) {
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
                if (out.size() > MAX_BYTES) {
                    c.drop();
                    throw new FileSystemException(directory.toString(), null, command + " answer larger than "
                            + (MAX_BYTES >> 20) + " MiB: refused");
                }
                if (System.nanoTime() > deadline) {
                    c.drop();
                    throw new FileSystemException(directory.toString(), null, command + " answer took longer than "
                            + FtpConnection.wholeAnswerBound(options) + ": refused");
                }
            }
        }
        return out.toByteArray();
    }
}
