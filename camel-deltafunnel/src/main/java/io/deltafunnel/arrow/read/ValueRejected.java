package io.deltafunnel.arrow.read;

/** Internal, stackless signal that one value does not fit; turned into a {@code ValueOutOfRangeException}. */
public final class ValueRejected extends RuntimeException {
    public ValueRejected(String reason) {
        super(reason, null, false, false);
    }
}
