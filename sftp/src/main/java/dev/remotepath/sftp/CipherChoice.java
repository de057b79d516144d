package dev.remotepath.sftp;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The ciphers a connection offers when {@link SftpOptions#ciphers()} names them: picked by name
 * from what the SSH client implements, in the caller's order (the client's others after them
 * when {@link SftpOptions#otherCiphers()}), for both clients alike.
 */
final class CipherChoice {

    private CipherChoice() {
    }

    /**
     * {@code implemented} narrowed to {@code names}, in their order, and followed by the rest of
     * it when {@code others}; {@code implemented} as it is when no name is given.
     *
     * @throws IOException naming the first cipher the client does not implement
     */
    static <T> List<T> pick(List<String> names, boolean others, List<T> implemented, Function<T, String> nameOf,
            String client) throws IOException {
        if (names.isEmpty()) {
            return implemented;
        }
        List<T> chosen = new ArrayList<>();
        for (String name : names) {
            T found = null;
            for (T f : implemented) {
                if (nameOf.apply(f).equals(name)) {
                    found = f;
                    break;
                }
            }
            if (found == null) {
                throw new IOException("SFTP: cipher '" + name + "' is not one " + client + " offers; it offers "
                        + implemented.stream().map(nameOf).toList());
            }
            chosen.add(found);
        }
        if (others) {
            for (T f : implemented) {
                if (!chosen.contains(f)) {
                    chosen.add(f);
                }
            }
        }
        return chosen;
    }
}
