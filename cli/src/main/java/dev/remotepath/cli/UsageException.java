package dev.remotepath.cli;

/** A command line that does not fit its command's syntax: exit code 2, with the usage line. */
final class UsageException extends Exception {

    private final transient Syntax syntax;

    UsageException(Syntax syntax, String message) {
        super(message);
        this.syntax = syntax;
    }

    /** The syntax whose usage line follows the message. */
    Syntax syntax() {
        return syntax;
    }
}
