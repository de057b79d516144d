package dev.remotepath.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.stream.Stream;

/**
 * The FTP part of {@link AotTraining}: the commands against an FTP server in this process, so
 * that {@code rpath-ftp.aot} holds the ftp backend's and Commons Net's classes (an FTP no-op
 * sync started ~0.25 s later with them loaded outside the cache). Not an FTP server: just
 * enough of RFC 959 and RFC 3659 over a local folder for the training commands (anonymous login,
 * FEAT, PASV and EPSV, MLSD, MLST, RETR with REST, STOR, MFMT, SIZE, MDTM, RNFR/RNTO, DELE, MKD,
 * RMD), one session per thread, no TLS, no active mode.
 */
final class AotFtpTraining {

    private static final DateTimeFormatter FTP_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

    private AotFtpTraining() {
    }

    private record Session(Path root, Socket control) {

        void serve() throws IOException {
            try (control) {
                // "150" then "226" with nothing from the client between: Nagle would hold the
                // second until the client's delayed ACK of the first, ~40 ms a transfer.
                control.setTcpNoDelay(true);
                BufferedReader in = new BufferedReader(new InputStreamReader(control.getInputStream(), StandardCharsets.UTF_8));
                Writer out = new OutputStreamWriter(control.getOutputStream(), StandardCharsets.UTF_8);
                reply(out, "220 training");
                ServerSocket passive = null;
                long restart = 0;
                Path renaming = null;
                for (String line; (line = in.readLine()) != null;) {
                    int space = line.indexOf(' ');
                    String verb = (space < 0 ? line : line.substring(0, space)).toUpperCase(java.util.Locale.ROOT);
                    String arg = space < 0 ? "" : line.substring(space + 1);
                    try {
                        switch (verb) {
                            case "USER" -> reply(out, "331 any password");
                            case "PASS" -> reply(out, "230 logged in");
                            case "FEAT" -> reply(out, "211-Features:\r\n MLST type*;size*;modify*;UNIX.mode*;unique*;\r\n"
                                    + " MFMT\r\n SIZE\r\n MDTM\r\n UTF8\r\n REST STREAM\r\n EPSV\r\n PASV\r\n211 End");
                            case "OPTS", "TYPE", "NOOP" -> reply(out, "200 ok");
                            case "SYST" -> reply(out, "215 UNIX Type: L8");
                            case "PWD" -> reply(out, "257 \"/\"");
                            case "CWD" -> reply(out, Files.isDirectory(file(arg)) ? "250 ok" : "550 not a directory");
                            case "PASV", "EPSV" -> {
                                if (passive != null) {
                                    passive.close();
                                }
                                passive = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                                passive.setSoTimeout(30_000); // a client that never connects fails the build, never hangs it
                                int port = passive.getLocalPort();
                                reply(out, verb.equals("EPSV") ? "229 Entering Extended Passive Mode (|||" + port + "|)"
                                        : "227 Entering Passive Mode (127,0,0,1," + (port >> 8) + "," + (port & 255) + ")");
                            }
                            case "REST" -> {
                                restart = Long.parseLong(arg);
                                reply(out, "350 restarting at " + restart);
                            }
                            case "MLSD", "RETR", "STOR", "APPE" -> {
                                Path p = file(arg);
                                if (passive == null || (!verb.equals("STOR") && !verb.equals("APPE") && !Files.exists(p))) {
                                    reply(out, "550 " + arg + ": no such file or no PASV");
                                    continue;
                                }
                                reply(out, "150 opening data connection");
                                try (ServerSocket listening = passive; Socket data = listening.accept()) {
                                    transfer(verb, p, data, restart);
                                }
                                passive = null;
                                restart = 0;
                                reply(out, "226 done");
                            }
                            case "MLST" -> {
                                Path p = file(arg);
                                reply(out, Files.exists(p) ? "250-Listing\r\n " + facts(p) + " " + arg + "\r\n250 End"
                                        : "550 " + arg + ": no such file");
                            }
                            case "SIZE" -> reply(out, Files.isRegularFile(file(arg)) ? "213 " + Files.size(file(arg))
                                    : "550 not a file");
                            case "MDTM" -> reply(out, "213 " + FTP_TIME.format(Files.getLastModifiedTime(file(arg)).toInstant()));
                            case "MFMT" -> {
                                String[] timeAndPath = arg.split(" ", 2);
                                Files.setLastModifiedTime(file(timeAndPath[1]),
                                        FileTime.from(FTP_TIME.parse(timeAndPath[0].substring(0, 14), java.time.Instant::from)));
                                reply(out, "213 Modify=" + timeAndPath[0] + "; " + timeAndPath[1]);
                            }
                            case "RNFR" -> {
                                renaming = file(arg);
                                reply(out, Files.exists(renaming) ? "350 ready" : "550 no such file");
                            }
                            case "RNTO" -> {
                                Files.move(renaming, file(arg), StandardCopyOption.REPLACE_EXISTING);
                                reply(out, "250 renamed");
                            }
                            case "DELE" -> {
                                Files.delete(file(arg));
                                reply(out, "250 deleted");
                            }
                            case "RMD" -> {
                                Files.delete(file(arg));
                                reply(out, "250 removed");
                            }
                            case "MKD" -> {
                                Files.createDirectory(file(arg));
                                reply(out, "257 \"" + arg + "\" created");
                            }
                            case "QUIT" -> {
                                reply(out, "221 bye");
                                return;
                            }
                            default -> reply(out, "502 " + verb + " not implemented");
                        }
                    } catch (IOException | RuntimeException e) {
                        reply(out, "550 " + e.getClass().getSimpleName());
                    }
                }
            }
        }

        private Path file(String arg) throws IOException {
            Path p = root.resolve(arg.startsWith("/") ? arg.substring(1) : arg).normalize();
            if (!p.startsWith(root)) {
                throw new IOException("outside the root: " + arg);
            }
            return p;
        }

        private void transfer(String verb, Path p, Socket data, long restart) throws IOException {
            switch (verb) {
                case "MLSD" -> {
                    StringBuilder b = new StringBuilder();
                    try (Stream<Path> members = Files.list(p)) {
                        for (Path m : (Iterable<Path>) members.sorted()::iterator) {
                            b.append(facts(m)).append(' ').append(m.getFileName()).append("\r\n");
                        }
                    }
                    data.getOutputStream().write(b.toString().getBytes(StandardCharsets.UTF_8));
                }
                case "RETR" -> {
                    try (InputStream file = Files.newInputStream(p)) {
                        file.skipNBytes(restart);
                        file.transferTo(data.getOutputStream());
                    }
                }
                default -> {
                    try (OutputStream file = Files.newOutputStream(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            verb.equals("APPE") ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING)) {
                        data.getInputStream().transferTo(file);
                    }
                }
            }
        }

        private String facts(Path p) throws IOException {
            boolean dir = Files.isDirectory(p);
            return "type=" + (dir ? "dir" : "file") + ";size=" + (dir ? 0 : Files.size(p)) + ";modify="
                    + FTP_TIME.format(Files.getLastModifiedTime(p).toInstant()) + ";UNIX.mode=" + (dir ? "0755" : "0644")
                    + ";unique=" + Integer.toHexString(p.hashCode()) + ";";
        }

        private static void reply(Writer out, String text) throws IOException {
            out.write(text + "\r\n");
            out.flush();
        }
    }

    static void run(Path work, OutputStream sink, Path local) throws Exception {
        Path root = Files.createDirectories(work.resolve("ftp")).toRealPath();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofPlatform().daemon().name("aot-ftp").start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket control = server.accept();
                        Thread.ofPlatform().daemon().start(() -> {
                            try {
                                new Session(root, control).serve();
                            } catch (IOException e) {
                                // the client went away: nothing to train on
                            }
                        });
                    } catch (IOException e) {
                        return; // closed
                    }
                }
            });
            String base = "ftp://anonymous@127.0.0.1:" + server.getLocalPort();
            AotTraining.remoteCommands(sink, base, local, work);
        }
    }
}
