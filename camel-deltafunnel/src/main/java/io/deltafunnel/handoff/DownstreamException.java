package io.deltafunnel.handoff;

/** The downstream writer rejected a batch; the stats count only the batches accepted before it. */
public class DownstreamException extends HandoffException {
    public DownstreamException(String message, HandoffStats stats, Throwable cause) {
        super(HandoffPhase.DOWNSTREAM, message, stats, cause);
    }
}
