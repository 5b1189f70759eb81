package io.deltafunnel.emulator.semantics;

/**
 * The request is cancelled: the client sent ATTENTION while it ran (stop and acknowledge with DONE_ATTN), or a lock
 * wait was interrupted because the emulator is closing.
 */
public final class AttentionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AttentionException() {
        super("request cancelled by the client (ATTENTION)");
    }
}
