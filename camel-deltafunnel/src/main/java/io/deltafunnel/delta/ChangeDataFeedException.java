package io.deltafunnel.delta;

/** The change data feed of a table cannot be read for the requested range (not enabled, or turned off inside it). */
public class ChangeDataFeedException extends DeltaException {
    public ChangeDataFeedException(String tablePath, String problem) {
        super(tablePath, problem);
    }
}
