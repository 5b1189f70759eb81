package io.deltafunnel.delta;

import java.util.List;

/** The table's {@code protocol} action at the snapshot version. */
public record DeltaProtocol(int minReaderVersion, int minWriterVersion, List<String> readerFeatures,
        List<String> writerFeatures) {

    public DeltaProtocol {
        readerFeatures = readerFeatures == null ? List.of() : List.copyOf(readerFeatures);
        writerFeatures = writerFeatures == null ? List.of() : List.copyOf(writerFeatures);
    }

    boolean hasReaderFeature(String feature) {
        return readerFeatures.contains(feature);
    }
}
