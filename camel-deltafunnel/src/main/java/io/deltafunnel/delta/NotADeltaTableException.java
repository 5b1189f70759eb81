package io.deltafunnel.delta;

/** The path holds no Delta log: {@code _delta_log/} is absent or has neither commits nor checkpoints. */
public class NotADeltaTableException extends DeltaException {

    private static final long serialVersionUID = 1L;

    public NotADeltaTableException(String tablePath, String problem) {
        super(tablePath, problem);
    }
}
