package io.deltafunnel.emulator;

/** The client sent ATTENTION while a request was running: stop and acknowledge with DONE_ATTN. */
final class AttentionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AttentionException() {
        super("request cancelled by the client (ATTENTION)");
    }
}
