package io.deltafunnel.tds;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServerMessageTest {

    @Test
    void errorTokenReadsBackAsWritten() {
        TdsWriter w = new TdsWriter();
        TokenWriter.message(w, TokenType.ERROR, 2627, 1, 14,
                "Violation of PRIMARY KEY constraint 'PK_t'. Cannot insert duplicate key in object 'dbo.t'.",
                "emulator", "", 3);
        TokenWriter.done(w, TokenType.DONE, DoneStatus.ERROR, 0, 0);
        TdsReader r = new TdsReader(w.toByteArray());
        assertEquals(TokenType.ERROR, r.readUnsignedByte());
        ServerMessage m = ServerMessage.read(r);
        assertEquals(new ServerMessage(2627, 1, 14,
                "Violation of PRIMARY KEY constraint 'PK_t'. Cannot insert duplicate key in object 'dbo.t'.",
                "emulator", "", 3), m);
        assertEquals(TokenType.DONE, r.readUnsignedByte(), "the reader stands right after the token");
    }

    @Test
    void longTextIsCutAt4000CharactersAsSqlServerDoes() {
        TdsWriter w = new TdsWriter();
        TokenWriter.message(w, TokenType.INFO, 50000, 1, 0, "x".repeat(5000), "s", "p", 0);
        TdsReader r = new TdsReader(w.toByteArray());
        r.readUnsignedByte();
        ServerMessage m = ServerMessage.read(r);
        assertEquals(4000, m.text().length());
        assertEquals("p", m.procName());
        assertTrue(r.atEnd());
    }

    @Test
    void powersOfTen() {
        assertEquals(1, Pow10.of(0));
        assertEquals(1_000_000_000_000_000_000L, Pow10.of(Pow10.MAX_EXPONENT));
        assertEquals(1_000_000_000, Pow10.intOf(9));
        for (int i = 1; i <= Pow10.MAX_EXPONENT; i++) {
            assertEquals(Pow10.of(i - 1) * 10, Pow10.of(i));
        }
    }
}
