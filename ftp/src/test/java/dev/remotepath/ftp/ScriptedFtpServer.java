package dev.remotepath.ftp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A hostile FTP server on 127.0.0.1 whose answers a test scripts: what {@code MLST} says of a
 * path, what an {@code MLSD}, {@code LIST} or {@code RETR} sends and the reply that ends it, a
 * {@code PASV} answer naming another host, a trickle, or no greeting at all. It speaks just
 * enough FTP for the client to log in; everything else is what a broken or malicious server does.
 */
final class ScriptedFtpServer implements AutoCloseable {

    /** What a data command sends, then its final reply; with {@code trickle}, a byte per period, forever. */
    record Data(byte[] body, String finalReply, Duration trickle) {
        static Data of(String body) {
            return new Data(body.getBytes(StandardCharsets.UTF_8), "226 Transfer complete", null);
        }

        static Data cutShort(String body) {
            return new Data(body.getBytes(StandardCharsets.UTF_8), "426 Connection closed; transfer aborted", null);
        }

        static Data trickling(Duration period) {
            return new Data(new byte[0], "226 never sent", period);
        }
    }

    private final ServerSocket control;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    /** {@code MLST} answers by path: the fact line without its leading space and path. */
    final Map<String, String> facts = new ConcurrentHashMap<>();
    /** Data answers by {@code "MLSD /dir"}, {@code "LIST /cwd"} or {@code "RETR /file"}. */
    final Map<String, Data> data = new ConcurrentHashMap<>();
    volatile boolean mlst = true;
    volatile boolean greet = true;
    /** What SYST answers (it picks the client's LIST parser). */
    volatile String syst = "UNIX Type: L8";
    /** Sends the greeting a byte per period, for ever. */
    volatile Duration trickleGreeting;
    /** Answers FEAT with an endless multi-line reply. */
    volatile boolean endlessFeat;
    /** STOR and APPE accepted (150, the data connection taken) and then never read, for ever. */
    volatile boolean storeNeverRead;
    /** The address a {@code PASV} answer names (the data socket is always on 127.0.0.1). */
    volatile String passiveAddress = "127,0,0,1";

    ScriptedFtpServer() throws IOException {
        control = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("scripted-ftp-accept").start(this::accept);
    }

    int port() {
        return control.getLocalPort();
    }

    String base() {
        return "ftp://127.0.0.1:" + port();
    }

    private void accept() {
        while (!control.isClosed()) {
            try {
                Socket s = control.accept();
                open.add(s);
                Thread.ofVirtual().name("scripted-ftp-session").start(() -> session(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void session(Socket s) {
        try (s) {
            if (!greet) {
                s.getInputStream().read(); // say nothing; wait for the client to give up
                return;
            }
            OutputStream out = s.getOutputStream();
            if (trickleGreeting != null) {
                out.write("220-".getBytes(StandardCharsets.UTF_8));
                for (;;) {
                    Thread.sleep(trickleGreeting);
                    out.write('.');
                    out.flush();
                }
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            send(out, "220 scripted");
            ServerSocket passive = null;
            String cwd = "/";
            for (String line; (line = in.readLine()) != null; ) {
                int sp = line.indexOf(' ');
                String cmd = (sp < 0 ? line : line.substring(0, sp)).toUpperCase(java.util.Locale.ROOT);
                String arg = sp < 0 ? "" : line.substring(sp + 1);
                switch (cmd) {
                    case "USER" -> send(out, "331 password please");
                    case "PASS" -> send(out, "230 logged in");
                    case "TYPE", "OPTS", "NOOP" -> send(out, "200 ok");
                    case "SYST" -> send(out, "215 " + syst);
                    case "FEAT" -> {
                        if (endlessFeat) {
                            byte[] featLine = "211- FEATURE-WITHOUT-END\r\n".getBytes(StandardCharsets.UTF_8);
                            for (;;) {
                                out.write(featLine);
                            }
                        }
                        send(out, "211-Features:\r\n" + (mlst ? " MLST type*;size*;modify*;\r\n" : "")
                            + " SIZE\r\n MDTM\r\n REST STREAM\r\n UTF8\r\n211 End");
                    }
                    case "PWD" -> send(out, "257 \"" + cwd + "\"");
                    case "CWD" -> {
                        String to = arg.startsWith("/") ? arg : cwd + arg;
                        String f = facts.get(to);
                        if (to.equals("/") || (f != null && f.contains("type=dir"))) {
                            cwd = to.endsWith("/") ? to : to + "/";
                            send(out, "250 ok");
                        } else {
                            send(out, "550 no such directory");
                        }
                    }
                    case "MLST" -> {
                        String f = arg.equals("/") ? "type=cdir;modify=20240101000000;" : facts.get(arg);
                        send(out, f == null ? "550 not found" : "250-Listing " + arg + "\r\n " + f + " " + arg + "\r\n250 End");
                    }
                    case "SIZE", "MDTM" -> send(out, "550 use MLST");
                    case "PASV" -> {
                        if (passive != null) {
                            passive.close();
                        }
                        passive = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                        int p = passive.getLocalPort();
                        send(out, "227 Entering Passive Mode (" + passiveAddress + "," + (p >> 8) + "," + (p & 0xff) + ")");
                    }
                    case "MLSD", "LIST", "RETR" -> {
                        String key = cmd + " " + (cmd.equals("LIST") ? cwd.replaceAll("(.)/$", "$1")
                                : arg.isEmpty() || arg.startsWith("-") ? cwd : arg);
                        Data d = data.get(key);
                        if (d == null || passive == null) {
                            send(out, "550 nothing scripted for " + key);
                            continue;
                        }
                        send(out, "150 here it comes");
                        passive.setSoTimeout(10_000);
                        try (Socket dataSocket = passive.accept(); OutputStream dout = dataSocket.getOutputStream()) {
                            open.add(dataSocket);
                            dout.write(d.body());
                            dout.flush();
                            while (d.trickle() != null) {
                                Thread.sleep(d.trickle());
                                dout.write('x');
                                dout.flush();
                            }
                        } catch (IOException e) {
                            if (d.trickle() != null) {
                                return; // the client gave up on the trickle: the session is over too
                            }
                            throw e;
                        }
                        passive.close();
                        passive = null;
                        send(out, d.finalReply());
                    }
                    case "STOR", "APPE" -> {
                        if (!storeNeverRead || passive == null) {
                            send(out, "550 nothing scripted for " + cmd);
                            continue;
                        }
                        send(out, "150 send it");
                        passive.setSoTimeout(10_000);
                        Socket dataSocket = passive.accept();
                        dataSocket.setReceiveBufferSize(4096);
                        open.add(dataSocket);
                        while (!control.isClosed()) {
                            Thread.sleep(100); // holds the data connection open, reads nothing
                        }
                        return;
                    }
                    case "QUIT" -> {
                        send(out, "221 bye");
                        return;
                    }
                    default -> send(out, "502 not scripted: " + cmd);
                }
            }
        } catch (IOException | InterruptedException e) {
            // the client hung up, or the test ended
        }
    }

    private static void send(OutputStream out, String reply) throws IOException {
        out.write((reply + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        control.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
