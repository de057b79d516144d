package dev.remotepath.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The UTF-8 scanner against the JDK's StAX parser, which it replaces on the hot path: the same
 * responses from what real servers sent, from generated answers that use every construct a
 * server may (prefixes rebound, default namespaces, comments, PIs, CDATA, entities, character
 * references, CR LF), from any split of the stream into reads; and no document StAX refuses is
 * read by the scanner.
 */
class XmlScannerTest {

    private static final String[] FIXTURES = {"apache2-allprop.xml", "apache2-root.xml", "lighttpd-allprop.xml",
        "lighttpd-root.xml", "rclone-allprop.xml", "rclone-root.xml"};

    private static byte[] fixture(String name) throws IOException {
        try (InputStream in = XmlScannerTest.class.getResourceAsStream("/multistatus/" + name)) {
            return in.readAllBytes();
        }
    }

    private static List<Multistatus.Response> read(XmlPull events) throws Multistatus.MalformedException, IOException {
        List<Multistatus.Response> out = new ArrayList<>();
        try (Multistatus.Reader reader = new Multistatus.Reader(events)) {
            for (Multistatus.Response r = reader.next(); r != null; r = reader.next()) {
                out.add(r);
            }
        }
        return out;
    }

    private static List<Multistatus.Response> scanned(InputStream in) throws Exception {
        XmlScanner scanner = new XmlScanner(in);
        assertThat(scanner.isUtf8()).isTrue();
        return read(scanner);
    }

    private static List<Multistatus.Response> stax(byte[] b) throws Exception {
        return read(new XmlPull.Stax(new ByteArrayInputStream(b)));
    }

    /** Reads of 1 to {@code max} bytes, as a trickling server's answer arrives. */
    private static InputStream chunked(byte[] b, Random random, int max) {
        return new FilterInputStream(new ByteArrayInputStream(b)) {
            @Override
            public int read(byte[] into, int off, int len) throws IOException {
                return super.read(into, off, Math.min(len, 1 + random.nextInt(max)));
            }
        };
    }

    @Test
    void whatRealServersSentReadsAsStaxReadsIt() throws Exception {
        Random random = new Random(11);
        for (String f : FIXTURES) {
            byte[] b = fixture(f);
            List<Multistatus.Response> expected = stax(b);
            assertThat(expected).as(f).isNotEmpty();
            assertThat(scanned(new ByteArrayInputStream(b))).as(f).isEqualTo(expected);
            assertThat(scanned(chunked(b, random, 1))).as(f + ", a byte a read").isEqualTo(expected);
            assertThat(scanned(chunked(b, random, 300))).as(f + ", reads of any size").isEqualTo(expected);
        }
    }

    @Test
    void generatedAnswersReadAsStaxReadsThem() throws Exception {
        Random random = new Random(3);
        for (int n = 0; n < 2000; n++) {
            byte[] b = generated(random).getBytes(StandardCharsets.UTF_8);
            List<Multistatus.Response> expected = stax(b);
            assertThat(scanned(chunked(b, random, 1 + random.nextInt(64)))).as(new String(b, StandardCharsets.UTF_8))
                    .isEqualTo(expected);
        }
    }

    @Test
    void nothingStaxRefusesIsRead() throws Exception {
        Random random = new Random(17);
        List<byte[]> bases = new ArrayList<>();
        for (String f : FIXTURES) {
            bases.add(fixture(f));
        }
        for (int i = 0; i < 50; i++) {
            bases.add(generated(random).getBytes(StandardCharsets.UTF_8));
        }
        String alphabet = "<>/&;\"'x:=!?[]-#\0\r\n \u00e9";
        int refusedByBoth = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] base = bases.get(random.nextInt(bases.size()));
            StringBuilder s = new StringBuilder(new String(base, StandardCharsets.UTF_8));
            for (int e = 1 + random.nextInt(3); e > 0; e--) {
                int at = random.nextInt(s.length());
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                switch (random.nextInt(3)) {
                    case 0 -> s.setCharAt(at, c);
                    case 1 -> s.insert(at, c);
                    default -> s.deleteCharAt(at);
                }
            }
            byte[] b = s.toString().getBytes(StandardCharsets.UTF_8);
            if (random.nextInt(8) == 0) {
                b = java.util.Arrays.copyOf(b, random.nextInt(b.length)); // cut short
            }
            List<Multistatus.Response> expected;
            String why = "";
            try {
                expected = stax(b);
            } catch (Multistatus.MalformedException | java.io.CharConversionException refused) {
                // (StAX reports bytes that are not UTF-8 as an IOException of that kind)
                expected = null;
                why = refused.getMessage();
            }
            List<Multistatus.Response> got;
            try {
                got = read(XmlPull.open(new ByteArrayInputStream(b))); // a mutated declaration may name another encoding
            } catch (Multistatus.MalformedException refused) {
                got = null;
            }
            String doc = new String(b, StandardCharsets.UTF_8);
            if (expected == null) {
                assertThat(got).as("StAX refuses (%s), the scanner must too:\n%s", why, doc).isNull();
                refusedByBoth++;
            } else if (got != null) {
                assertThat(got).as(doc).isEqualTo(expected);
            }
        }
        assertThat(refusedByBoth).isGreaterThan(1000); // the mutations did break documents
    }

    @Test
    void whatAPropfindAnswerMustNotHoldIsRefused() {
        String open = "<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>";
        String close = "</D:href></D:response></D:multistatus>";
        for (String bad : List.of(
                "<!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>" + open + "/&x;" + close,
                open + "/&x;" + close, // an undeclared entity
                open + "/a\0b" + close, // NUL, raw
                open + "/a&#0;b" + close, // NUL, referenced
                open + "/a&#x1;b" + close,
                open + "/a&#xD800;b" + close, // a lone surrogate
                open + "/a" + "</D:response></D:multistatus>", // tags that do not nest
                open + "/a" + close + "<D:multistatus xmlns:D=\"DAV:\"/>", // a second root
                open + "/a" + close + "trailing text",
                "text before" + open + "/a" + close,
                "<X:multistatus xmlns:D=\"DAV:\"/>", // an unbound prefix
                "<D:multistatus xmlns:D=\"DAV:\" a=\"1\" a=\"2\"/>",
                "<D:multistatus xmlns:D=\"DAV:\" a=1/>",
                "<D:multistatus xmlns:D=\"DAV:\" a=\"<\"/>",
                "<D:multistatus xmlns:D=\"DAV:\"><!-- a -- b --></D:multistatus>",
                "<D:multistatus xmlns:D=\"DAV:\"><?xml version=\"1.0\"?></D:multistatus>",
                "<D:a:b xmlns:D=\"DAV:\"/>",
                "<D:multistatus xmlns:D=\"\"/>",
                "<1a/>",
                "")) {
            assertThatThrownBy(() -> scanned(new ByteArrayInputStream(bad.getBytes(StandardCharsets.UTF_8))))
                    .as(bad).isInstanceOf(Multistatus.MalformedException.class);
        }
        byte[] notUtf8 = (open + "/a\u00e9" + close).getBytes(StandardCharsets.ISO_8859_1); // no declaration: UTF-8
        assertThatThrownBy(() -> scanned(new ByteArrayInputStream(notUtf8)))
                .isInstanceOf(Multistatus.MalformedException.class).hasMessageContaining("UTF-8");
    }

    @Test
    void anotherEncodingIsReadByTheJdksParser() throws Exception {
        String doc = "<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>/caf\u00e9</D:href></D:response></D:multistatus>";
        byte[] latin1 = ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + doc).getBytes(StandardCharsets.ISO_8859_1);
        assertThat(Multistatus.parse(latin1, latin1.length)).extracting(Multistatus.Response::href).containsExactly("/caf\u00e9");
        byte[] utf16 = ("\uFEFF<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + doc).getBytes(StandardCharsets.UTF_16BE);
        assertThat(Multistatus.parse(utf16, utf16.length)).extracting(Multistatus.Response::href).containsExactly("/caf\u00e9");
        byte[] bom = ("\uFEFF<?xml version=\"1.0\" encoding=\"utf-8\"?>" + doc).getBytes(StandardCharsets.UTF_8);
        assertThat(Multistatus.parse(bom, bom.length)).extracting(Multistatus.Response::href).containsExactly("/caf\u00e9");
    }

    @Test
    void theStreamsOwnFailureComesOutAsItself() {
        byte[] head = "<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>/a".getBytes(StandardCharsets.UTF_8);
        InputStream failing = new FilterInputStream(new ByteArrayInputStream(head)) {
            @Override
            public int read(byte[] into, int off, int len) throws IOException {
                int n = super.read(into, off, len);
                if (n < 0) {
                    throw new java.net.SocketTimeoutException("the answer stalled");
                }
                return n;
            }
        };
        assertThatThrownBy(() -> scanned(failing)).isInstanceOf(java.net.SocketTimeoutException.class);
    }

    /** A multistatus written the ways servers write them, picked at random. */
    private static String generated(Random random) {
        String dav = pick(random, "D", "d", "lp1", "");
        StringBuilder b = new StringBuilder();
        if (random.nextBoolean()) {
            b.append(pick(random, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n", "<?xml version='1.0'?>",
                    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n"));
        }
        if (random.nextInt(4) == 0) {
            b.append("<!-- made by a test -->\n<?php-target some data?>\n");
        }
        b.append('<').append(q(dav, "multistatus")).append(ns(dav, "DAV:")).append(" xmlns:R=\"").append(Multistatus.RP)
                .append("\">");
        for (int i = random.nextInt(6); i >= 0; i--) {
            // a response may rebind DAV: under another prefix
            String p = random.nextInt(3) == 0 ? pick(random, "ns0", "g", "") : dav;
            String nsDecl = p.equals(dav) ? "" : ns(p, "DAV:");
            b.append(ws(random)).append('<').append(q(p, "response")).append(nsDecl).append('>').append(ws(random));
            b.append('<').append(q(p, "href")).append('>').append(text(random, "/dir/f" + i)).append("</")
                    .append(q(p, "href")).append('>');
            boolean collection = random.nextBoolean();
            b.append('<').append(q(p, "propstat")).append('>').append('<').append(q(p, "prop")).append('>');
            if (collection) {
                b.append('<').append(q(p, "resourcetype")).append("><").append(q(p, "collection"))
                        .append(random.nextBoolean() ? "/>" : "></" + q(p, "collection") + ">").append("</")
                        .append(q(p, "resourcetype")).append('>');
            } else {
                b.append('<').append(q(p, "resourcetype")).append(random.nextBoolean() ? "/>" : "></" + q(p, "resourcetype") + ">");
                b.append('<').append(q(p, "getcontentlength")).append('>').append(ws(random)).append(random.nextInt(100000))
                        .append(ws(random)).append("</").append(q(p, "getcontentlength")).append('>');
            }
            if (random.nextBoolean()) {
                b.append('<').append(q(p, "getlastmodified")).append('>').append(text(random, "Sun, 06 Dec 2026 06:06:35 GMT"))
                        .append("</").append(q(p, "getlastmodified")).append('>');
            }
            if (random.nextBoolean()) {
                b.append('<').append(q(p, "getetag")).append('>').append(text(random, "\"1a6d-661f0e95c6eb4\""))
                        .append("</").append(q(p, "getetag")).append('>');
            }
            if (random.nextBoolean()) {
                b.append("<R:mtime>").append(text(random, "2026-12-05T18:39:25.335557716Z 1796537195")).append("</R:mtime>");
            }
            if (random.nextInt(3) == 0) {
                b.append("<x:unknown xmlns:x=\"urn:x\" x:attr='1'><x:deep><getcontentlength xmlns=\"DAV:\">7</getcontentlength>")
                        .append("</x:deep><!-- c --></x:unknown>");
            }
            b.append("</").append(q(p, "prop")).append('>').append(ws(random));
            b.append('<').append(q(p, "status")).append('>').append(pick(random, "HTTP/1.1 200 OK", " HTTP/1.1  200 OK\n"))
                    .append("</").append(q(p, "status")).append('>');
            b.append("</").append(q(p, "propstat")).append('>');
            if (random.nextInt(3) == 0) {
                b.append('<').append(q(p, "propstat")).append("><").append(q(p, "prop")).append("><R:mtime/></")
                        .append(q(p, "prop")).append("><").append(q(p, "status")).append(">HTTP/1.1 404 Not Found</")
                        .append(q(p, "status")).append("></").append(q(p, "propstat")).append('>');
            }
            b.append("</").append(q(p, "response")).append('>');
        }
        b.append(ws(random)).append("</").append(q(dav, "multistatus")).append('>').append(ws(random));
        return b.toString();
    }

    /** Text written with entities, character references, CDATA or comments where a server might. */
    private static String text(Random random, String plain) {
        String s = plain + pick(random, "", " é", "&", "<", ">", "\"", "'", "\u4e2d", "\ud83d\ude00", "\r\nx", "\rx");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int how = random.nextInt(10);
            if (Character.isHighSurrogate(c)) { // a pair is written whole: raw or as one reference
                b.append(how == 0 ? "&#x" + Integer.toHexString(s.codePointAt(i)) + ";" : s.substring(i, i + 2));
                i++;
                continue;
            }
            if (c == '&' || c == '<') {
                b.append(how < 5 ? (c == '&' ? "&amp;" : "&lt;") : "&#" + (int) c + ";");
            } else if (how == 0) {
                b.append("&#x").append(Integer.toHexString(c)).append(';');
            } else if (how == 1 && c != '\r') {
                b.append("<![CDATA[").append(c).append("]]>");
            } else if (how == 2 && i > 0) {
                b.append("<!--x-->").append(c);
            } else if (c == '>' && how < 5) {
                b.append("&gt;");
            } else if (c == '"' && how < 5) {
                b.append("&quot;");
            } else if (c == '\'' && how < 5) {
                b.append("&apos;");
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static String q(String prefix, String local) {
        return prefix.isEmpty() ? local : prefix + ":" + local;
    }

    private static String ns(String prefix, String uri) {
        return (prefix.isEmpty() ? " xmlns=\"" : " xmlns:" + prefix + "=\"") + uri + "\"";
    }

    private static String ws(Random random) {
        return pick(random, "", "\n", " ", "\r\n  ", "\t");
    }

    private static String pick(Random random, String... options) {
        return options[random.nextInt(options.length)];
    }
}
