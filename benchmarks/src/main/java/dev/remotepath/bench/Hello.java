package dev.remotepath.bench;

/** A JVM hello world: the floor a whole-process command is compared with (the cli suite). */
public final class Hello {

    private Hello() {
    }

    public static void main(String[] args) {
        System.out.println("hello");
    }
}
