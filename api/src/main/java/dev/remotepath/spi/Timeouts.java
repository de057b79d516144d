package dev.remotepath.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * The one check every backend's options make of their timeouts, when the options are built
 * rather than where a timeout is first used. A timeout is at least {@link #SHORTEST}: the client
 * libraries underneath count milliseconds and read zero or less as "wait for ever" (Jetty's idle
 * and total timeouts, a socket's connect timeout), so 0, or 1 ns rounded down to 0 ms, would let
 * a silent server hold a command without end. And at most {@link #LONGEST}: some libraries take
 * an {@code int} of milliseconds (24.8 days), and bounds made from a timeout (ten read timeouts
 * for a whole answer) are counted in nanoseconds, where a larger value overflows into an error
 * naming nothing.
 */
public final class Timeouts {

    /** The shortest timeout a backend accepts: what the libraries count in, a millisecond. */
    public static final Duration SHORTEST = Duration.ofMillis(1);

    /** The longest timeout or interval a backend accepts. */
    public static final Duration LONGEST = Duration.ofDays(24);

    private Timeouts() {
    }

    /**
     * {@code timeout} if it is at least {@link #SHORTEST} and at most {@link #LONGEST}.
     *
     * @param name the option's name, for the message
     * @throws IllegalArgumentException naming the option and the value otherwise
     * @throws NullPointerException if {@code timeout} is null
     */
    public static Duration requireTimeout(String name, Duration timeout) {
        Objects.requireNonNull(timeout, name);
        if (timeout.compareTo(SHORTEST) < 0 || timeout.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException(name + " must be at least 1 ms and at most 24 days, was " + timeout);
        }
        return timeout;
    }

    /**
     * {@code interval} if it is zero or more and at most {@link #LONGEST}: for intervals that zero
     * turns off (a keep-alive), never for a timeout.
     *
     * @param name the option's name, for the message
     * @throws IllegalArgumentException naming the option and the value otherwise
     * @throws NullPointerException if {@code interval} is null
     */
    public static Duration requireInterval(String name, Duration interval) {
        Objects.requireNonNull(interval, name);
        if (interval.isNegative() || interval.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException(name + " must be zero or more and at most 24 days, was " + interval);
        }
        return interval;
    }

    /**
     * {@code timeout} times {@code factor}, for a bound made from a timeout (ten read timeouts for a
     * whole answer). Not {@code Duration.multipliedBy}: on JDK 25 it goes through
     * {@code BigDecimal}, whose class initialiser (5^65536 squared out) costs a fresh JVM 10-16 ms
     * before the command's first connection.
     *
     * @throws IllegalArgumentException if {@code factor} is negative
     * @throws ArithmeticException if the product overflows a {@code Duration}
     */
    public static Duration times(Duration timeout, int factor) {
        if (factor < 0) {
            throw new IllegalArgumentException("factor must be zero or more, was " + factor);
        }
        return Duration.ofSeconds(Math.multiplyExact(timeout.getSeconds(), (long) factor), (long) timeout.getNano() * factor);
    }
}
