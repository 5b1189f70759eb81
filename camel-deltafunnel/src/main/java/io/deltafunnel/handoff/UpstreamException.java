package io.deltafunnel.handoff;

/** The source stream failed after it had started; the stats count the batches delivered before it. */
public class UpstreamException extends HandoffException {
    public UpstreamException(String message, HandoffStats stats, Throwable cause) {
        super(HandoffPhase.UPSTREAM, message, stats, cause);
    }
}
