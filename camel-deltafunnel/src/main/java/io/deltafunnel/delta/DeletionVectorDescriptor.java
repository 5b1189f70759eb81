package io.deltafunnel.delta;

/**
 * The {@code deletionVector} of an {@code add} action: storage type {@code u} (relative path from a Z85 UUID with
 * optional random prefix), {@code i} (inline Z85 bitmap) or {@code p} (absolute path).
 */
public record DeletionVectorDescriptor(String storageType, String pathOrInlineDv, Integer offset, int sizeInBytes,
        long cardinality) {

    /** The protocol's uniqueId: storage type + pathOrInlineDv (+ "@" + offset). */
    public String uniqueId() {
        return storageType + pathOrInlineDv + (offset == null ? "" : "@" + offset);
    }
}
