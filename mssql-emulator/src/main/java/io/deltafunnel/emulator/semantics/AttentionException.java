package io.deltafunnel.emulator.semantics;

/** The client sent ATTENTION while a request was running: stop and acknowledge with DONE_ATTN. */
public final class AttentionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AttentionException() {
        super("request cancelled by the client (ATTENTION)");
    }
}
