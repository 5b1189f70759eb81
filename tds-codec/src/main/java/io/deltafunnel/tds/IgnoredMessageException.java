package io.deltafunnel.tds;

/** The sender set the ignore bit: the message being read must be discarded. */
public class IgnoredMessageException extends TdsProtocolException {
    private static final long serialVersionUID = 1L;

    public IgnoredMessageException() {
        super("the peer abandoned the message (ignore bit set)");
    }
}
