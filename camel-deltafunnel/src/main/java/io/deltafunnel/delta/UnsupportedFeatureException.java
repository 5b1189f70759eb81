package io.deltafunnel.delta;

/**
 * The table needs something this reader does not implement: a reader protocol version above 3, an unknown reader
 * table feature, an unknown data type or type change. {@link #feature()} names it.
 */
public class UnsupportedFeatureException extends DeltaException {

    private static final long serialVersionUID = 1L;

    private final String feature;

    public UnsupportedFeatureException(String tablePath, String feature, String problem) {
        super(tablePath, problem);
        this.feature = feature;
    }

    public String feature() {
        return feature;
    }
}
