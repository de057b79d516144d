package dev.remotepath.webdav;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lexical half of {@link XmlScanner}: the buffered bytes of one document, the byte order mark
 * and XML declaration (whether the document is UTF-8), text with its entities, character
 * references, line ends and forbidden characters, comments, CDATA sections and processing
 * instructions, and strict UTF-8 decoding. Each check refuses with a
 * {@link Multistatus.MalformedException} that says what was wrong; the stream's own
 * {@code IOException}s pass through as they are.
 */
abstract sealed class XmlLexer permits XmlScanner {

    static final int DECLARATION_MAX = 1024;

    final InputStream in;
    final byte[] buf = new byte[16 * 1024];
    int pos;
    int lim;
    boolean eof;
    final boolean utf8;

    /** Bytes of the name, value or text being read. */
    byte[] scratch = new byte[256];
    int len;
    CharsetDecoder decoder;
    /** How many elements are open (the scanner counts them; text outside the root is checked apart). */
    int depth;
    /** The ']' just before, in the text being read: "]]>" may not stand in text. */
    int brackets;

    XmlLexer(InputStream in) throws Multistatus.MalformedException, IOException {
        this.in = in;
        this.utf8 = prologue();
    }

    boolean isUtf8() {
        return utf8;
    }

    /** What has been read from the stream and not consumed (for another parser to start from). */
    byte[] unread() {
        return Arrays.copyOfRange(buf, pos, lim);
    }

    /** Reads a byte order mark and the XML declaration, if any: whether the document is UTF-8. */
    boolean prologue() throws Multistatus.MalformedException, IOException {
        ensure(4);
        int b0 = byteAt(0);
        int b1 = byteAt(1);
        if (b0 == 0xFE && b1 == 0xFF || b0 == 0xFF && b1 == 0xFE || b0 == 0 || b1 == 0) {
            return false; // UTF-16 or UTF-32, with or without a mark
        }
        if (b0 == 0xEF && b1 == 0xBB && byteAt(2) == 0xBF) {
            pos += 3;
        }
        ensure(6);
        if (!startsWith("<?xml") || !isSpace(byteAt(5))) {
            return true;
        }
        int end = -1;
        for (int i = 5; end < 0; i++) {
            if (i >= DECLARATION_MAX || !ensure(i + 2)) {
                throw malformed("an XML declaration that does not end");
            }
            if (byteAt(i) == '?' && byteAt(i + 1) == '>') {
                end = i;
            }
        }
        String encoding = declaredEncoding(new String(buf, pos + 5, end - 5, StandardCharsets.ISO_8859_1));
        if (encoding != null && !encoding.equalsIgnoreCase("UTF-8") && !encoding.equalsIgnoreCase("US-ASCII")) {
            return false; // any other name, even an alias of these, is the JDK parser's to take or refuse
        }
        pos += end + 2;
        return true;
    }

    /**
     * The encoding an XML declaration names (null for none), its form checked: {@code version},
     * then {@code encoding} and {@code standalone} if present, in that order, each {@code name="value"}.
     */
    static String declaredEncoding(String declaration) throws Multistatus.MalformedException {
        String[] names = {"version", "encoding", "standalone"};
        String[] values = new String[3];
        int i = 0;
        int next = 0;
        while (true) {
            int start = i;
            while (i < declaration.length() && isSpace(declaration.charAt(i))) {
                i++;
            }
            if (i == declaration.length()) {
                break;
            }
            if (i == start) {
                throw malformed("an XML declaration's pseudo-attributes not apart");
            }
            int name = -1;
            for (int n = next; n < names.length && name < 0; n++) {
                if (declaration.startsWith(names[n], i)) {
                    name = n;
                }
            }
            if (name < 0) {
                throw malformed("an XML declaration that is not version, encoding, standalone");
            }
            i += names[name].length();
            while (i < declaration.length() && isSpace(declaration.charAt(i))) {
                i++;
            }
            if (i == declaration.length() || declaration.charAt(i) != '=') {
                throw malformed("an XML declaration's " + names[name] + " without a value");
            }
            i++;
            while (i < declaration.length() && isSpace(declaration.charAt(i))) {
                i++;
            }
            char quote = i < declaration.length() ? declaration.charAt(i) : ' ';
            int close = quote == '"' || quote == '\'' ? declaration.indexOf(quote, i + 1) : -1;
            if (close < 0) {
                throw malformed("an XML declaration's " + names[name] + " not quoted");
            }
            values[name] = declaration.substring(i + 1, close);
            i = close + 1;
            next = name + 1;
        }
        if (values[0] == null || !isVersion(values[0])) {
            throw malformed("an XML declaration without version 1.x");
        }
        if (values[2] != null && !values[2].equals("yes") && !values[2].equals("no")) {
            throw malformed("an XML declaration's standalone not yes or no");
        }
        if (values[1] != null && (values[1].isEmpty() || !Character.isLetter(values[1].charAt(0)))) {
            throw malformed("an XML declaration's encoding malformed");
        }
        return values[1];
    }

    /** {@code 1.} and digits. */
    static boolean isVersion(String v) {
        if (!v.startsWith("1.") || v.length() < 3) {
            return false;
        }
        for (int i = 2; i < v.length(); i++) {
            if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Passes over text up to the next {@code <}: only whitespace outside the root, checked text inside it. */
    void passText() throws Multistatus.MalformedException, IOException {
        brackets = 0;
        while (true) {
            if (pos == lim && !fill()) {
                return;
            }
            int c = buf[pos] & 0xFF;
            if (c == '<') {
                return;
            }
            pos++;
            if (depth == 0) {
                if (!isSpace(c)) {
                    throw malformed("text outside the root element");
                }
            } else if (c == '&') {
                int keep = len;
                entity();
                len = keep;
                brackets = 0;
            } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                throw malformed("a control character (0x" + Integer.toHexString(c) + ") in text");
            } else {
                brackets(c);
            }
        }
    }

    void brackets(int c) throws Multistatus.MalformedException {
        if (c == ']') {
            brackets++;
        } else {
            if (c == '>' && brackets >= 2) {
                throw malformed("']]>' in text");
            }
            brackets = 0;
        }
    }

    /** The run of text at the read position that needs no decoding, copied into {@code scratch} at once. */
    void copyPlainText() {
        if (brackets >= 2) {
            return; // a '>' next would close "]]>": read byte by byte
        }
        int i = pos;
        while (i < lim) {
            int c = buf[i];
            if (c == '<' || c == '&' || c == '\r' || c == ']' || c >= 0 && c < 0x20 && c != '\t' && c != '\n') {
                break;
            }
            i++;
        }
        int n = i - pos;
        if (n > 0) {
            if (len + n > scratch.length) {
                scratch = Arrays.copyOf(scratch, Math.max(scratch.length * 2, len + n));
            }
            System.arraycopy(buf, pos, scratch, len, n);
            len += n;
            pos = i;
            brackets = 0;
        }
    }

    /** One byte of text into {@code scratch}: entities decoded, line ends normalised, controls refused. */
    void textByte(int c) throws Multistatus.MalformedException, IOException {
        if (c == '&') {
            entity();
            brackets = 0;
        } else if (c == '\r') {
            append('\n');
            if (peek() == '\n') {
                pos++;
            }
        } else if (c < 0x20 && c != '\t' && c != '\n') {
            throw malformed("a control character (0x" + Integer.toHexString(c) + ") in text");
        } else {
            brackets(c);
            append(c);
        }
    }

    /** After {@code &}: one of XML's five entities or a character reference, its UTF-8 appended. */
    void entity() throws Multistatus.MalformedException, IOException {
        StringBuilder name = new StringBuilder(8);
        while (true) {
            int c = read();
            if (c == ';') {
                break;
            }
            if (c < 0 || name.length() >= 12 || c == '<' || c == '&' || isSpace(c)) {
                throw malformed("an unterminated entity reference &" + name);
            }
            name.append((char) c);
        }
        String n = name.toString();
        int cp;
        switch (n) {
            case "lt" -> cp = '<';
            case "gt" -> cp = '>';
            case "amp" -> cp = '&';
            case "quot" -> cp = '"';
            case "apos" -> cp = '\'';
            default -> cp = characterReference(n);
        }
        appendCodePoint(cp);
    }

    int characterReference(String n) throws Multistatus.MalformedException {
        if (!n.startsWith("#") || n.length() < 2) {
            throw malformed("an entity reference &" + n + "; (only XML's five and character references are read)");
        }
        int cp;
        try {
            boolean hex = n.charAt(1) == 'x';
            String digits = n.substring(hex ? 2 : 1);
            if (digits.isEmpty() || digits.charAt(0) == '+' || digits.charAt(0) == '-') {
                throw new NumberFormatException();
            }
            cp = Integer.parseInt(digits, hex ? 16 : 10);
        } catch (NumberFormatException e) {
            throw malformed("a malformed character reference &" + n + ";");
        }
        if (!isXmlChar(cp)) {
            throw malformed("a character reference &" + n + "; to a character XML does not allow");
        }
        return cp;
    }

    /** Refuses what XML allows nowhere: C0 controls but tab, LF and CR. */
    static void control(int c) throws Multistatus.MalformedException {
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            throw malformed("a control character (0x" + Integer.toHexString(c) + ")");
        }
    }

    static boolean isXmlChar(int cp) {
        return cp == 0x9 || cp == 0xA || cp == 0xD || cp >= 0x20 && cp <= 0xD7FF || cp >= 0xE000 && cp <= 0xFFFD
                || cp >= 0x10000 && cp <= 0x10FFFF;
    }

    /** After {@code <!}: a comment, a CDATA section (text, if {@code keep}), or a refused DOCTYPE. */
    void markup(boolean keep) throws Multistatus.MalformedException, IOException {
        int c = read();
        if (c == '-') {
            if (read() != '-') {
                throw malformed("a malformed comment");
            }
            int dashes = 0;
            while (true) {
                c = read();
                if (c < 0) {
                    throw malformed("a comment that does not end");
                }
                control(c);
                if (c == '>' && dashes >= 2) {
                    return;
                }
                if (dashes >= 2) {
                    throw malformed("'--' inside a comment");
                }
                dashes = c == '-' ? dashes + 1 : 0;
            }
        }
        if (c == '[' && read() == 'C' && read() == 'D' && read() == 'A' && read() == 'T' && read() == 'A'
                && read() == '[') {
            if (depth == 0) {
                throw malformed("a CDATA section outside the root element");
            }
            int brackets = 0;
            while (true) {
                c = read();
                if (c < 0) {
                    throw malformed("a CDATA section that does not end");
                }
                if (c == '>' && brackets >= 2) {
                    if (keep) {
                        len -= 2; // the "]]" appended before the '>'
                    }
                    return;
                }
                brackets = c == ']' ? brackets + 1 : 0;
                if (c == '\r') {
                    c = '\n';
                    if (peek() == '\n') {
                        pos++;
                    }
                } else if (c < 0x20 && c != '\t' && c != '\n') {
                    throw malformed("a control character (0x" + Integer.toHexString(c) + ") in text");
                }
                if (keep) {
                    append(c);
                }
            }
        }
        if (c == 'D') {
            throw malformed("a DOCTYPE in a PROPFIND answer");
        }
        throw malformed("a malformed <! construct");
    }

    /** After {@code <?}: a processing instruction, passed over; the XML declaration only at the start. */
    void processingInstruction() throws Multistatus.MalformedException, IOException {
        StringBuilder name = new StringBuilder(8); // not scratch: a PI may stand inside text being read
        int c;
        while ((c = read()) >= 0 && isNameByte(c) && name.length() < 64) {
            name.append((char) c);
        }
        if (c == '?' ? peek() != '>' : !isSpace(c)) {
            throw malformed("a malformed processing instruction <?" + name);
        }
        String target = name.toString();
        char first = target.isEmpty() ? '-' : target.charAt(0);
        if (first == '-' || first == '.' || first >= '0' && first <= '9' || target.indexOf(':') >= 0) {
            throw malformed("a processing instruction's target is not a name: <?" + target);
        }
        if (target.equalsIgnoreCase("xml")) {
            throw malformed("an XML declaration after the document's start");
        }
        int prev = c;
        while (true) {
            if (prev == '?' && peek() == '>') {
                pos++;
                return;
            }
            prev = read();
            if (prev < 0) {
                throw malformed("a processing instruction that does not end");
            }
            control(prev);
        }
    }

    static boolean isNameByte(int c) {
        return NAME_BYTES[c];
    }

    /** The bytes a name may hold (any of a multi-byte UTF-8 character's). */
    static final boolean[] NAME_BYTES = new boolean[256];

    static {
        for (int c = 0; c < 256; c++) {
            NAME_BYTES[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ':' || c == '_'
                    || c == '-' || c == '.' || c >= 0x80;
        }
    }

    /** Whether any whitespace was passed. */
    boolean skipSpaces() throws IOException {
        boolean any = false;
        while (true) {
            if (pos == lim && !fill()) {
                return any;
            }
            if (!isSpace(buf[pos] & 0xFF)) {
                return any;
            }
            pos++;
            any = true;
        }
    }

    static boolean isSpace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    void append(int b) {
        if (len == scratch.length) {
            scratch = Arrays.copyOf(scratch, len * 2);
        }
        scratch[len++] = (byte) b;
    }

    void appendCodePoint(int cp) {
        if (cp < 0x80) {
            append(cp);
        } else if (cp < 0x800) {
            append(0xC0 | cp >> 6);
            append(0x80 | cp & 0x3F);
        } else if (cp < 0x10000) {
            append(0xE0 | cp >> 12);
            append(0x80 | cp >> 6 & 0x3F);
            append(0x80 | cp & 0x3F);
        } else {
            append(0xF0 | cp >> 18);
            append(0x80 | cp >> 12 & 0x3F);
            append(0x80 | cp >> 6 & 0x3F);
            append(0x80 | cp & 0x3F);
        }
    }

    /** Bytes as strict UTF-8 (ASCII, the usual case, copied straight); U+FFFE and U+FFFF refused. */
    String decode(byte[] bytes, int n) throws Multistatus.MalformedException {
        return decode(bytes, 0, n);
    }

    String decode(byte[] bytes, int off, int n) throws Multistatus.MalformedException {
        boolean ascii = true;
        for (int i = off; i < off + n && ascii; i++) {
            ascii = bytes[i] >= 0;
        }
        if (ascii) {
            return new String(bytes, off, n, StandardCharsets.ISO_8859_1);
        }
        if (decoder == null) {
            decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        String s;
        try {
            s = decoder.reset().decode(ByteBuffer.wrap(bytes, off, n)).toString();
        } catch (CharacterCodingException e) {
            throw malformed("bytes that are not UTF-8");
        }
        if (s.indexOf('\uFFFE') >= 0 || s.indexOf('\uFFFF') >= 0) {
            throw malformed("a character XML does not allow (U+FFFE or U+FFFF)");
        }
        return s;
    }

    int read() throws IOException {
        if (pos == lim && !fill()) {
            return -1;
        }
        return buf[pos++] & 0xFF;
    }

    int peek() throws IOException {
        if (pos == lim && !fill()) {
            return -1;
        }
        return buf[pos] & 0xFF;
    }

    /** Reads more once all is consumed; false at the stream's end. */
    boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        pos = 0;
        lim = 0;
        int n;
        do {
            n = in.read(buf, 0, buf.length);
        } while (n == 0);
        if (n < 0) {
            eof = true;
            return false;
        }
        lim = n;
        return true;
    }

    /** At least {@code n} unconsumed bytes buffered, moving them to the front if need be; false at the end. */
    boolean ensure(int n) throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            lim -= pos;
            pos = 0;
        }
        while (lim < n && !eof) {
            int r = in.read(buf, lim, buf.length - lim);
            if (r < 0) {
                eof = true;
            } else {
                lim += r;
            }
        }
        return lim >= n;
    }

    int byteAt(int i) {
        return pos + i < lim ? buf[pos + i] & 0xFF : -1;
    }

    boolean startsWith(String ascii) {
        for (int i = 0; i < ascii.length(); i++) {
            if (byteAt(i) != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    static boolean isSpace(char c) {
        return isSpace((int) c);
    }

    static Multistatus.MalformedException malformed(String what) {
        return new Multistatus.MalformedException("not well-formed XML: " + what);
    }
}
