package io.deltafunnel.emulator;

import io.deltafunnel.tds.DoneStatus;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** EXEC of the few system procedures the emulator implements (sp_rename, sp_executesql with plain text). */
final class ExecHandler {
    private final ExecContext ctx;

    ExecHandler(ExecContext ctx) {
        this.ctx = ctx;
    }

    void execute(Stmt st) throws SqlServerError, SQLException, IOException {
        if (st.tokens.size() < 2) {
            throw SqlServerError.syntax(st.text);
        }
        int i = 1;
        Token procTok = st.tokens.get(i);
        if (procTok.kind() == Token.Kind.VARIABLE) {
            throw SqlServerError.unsupported("EXEC with a return status variable");
        }
        ObjectName proc = ObjectName.at(st.tokens, i);
        List<String> args = literalArgs(st.tokens, proc.next);
        String name = proc.name.toLowerCase(Locale.ROOT);
        switch (name) {
            case "sp_rename":
                if (args.size() < 2 || args.size() > 3) {
                    throw new SqlServerError(201, 4, 16,
                            "Procedure or function 'sp_rename' expects parameter '@newname', which was not supplied.");
                }
                new DdlHandler(ctx).rename(args.get(0), args.get(1), args.size() == 3 ? args.get(2) : null,
                        st.text);
                ctx.response.info(15477, "Caution: Changing any part of an object name could break scripts and"
                        + " stored procedures.");
                ctx.done(DoneStatus.CMD_NONE, -1);
                return;
            default:
                throw new SqlServerError(2812, 62, 16, "Could not find stored procedure '" + proc.name + "'.");
        }
    }

    /** Arguments given as string/number literals (named '@x = value' or positional). */
    private static List<String> literalArgs(List<Token> toks, int i) throws SqlServerError {
        List<String> out = new ArrayList<>();
        while (i < toks.size()) {
            Token t = toks.get(i);
            if (t.kind() == Token.Kind.VARIABLE && i + 1 < toks.size() && toks.get(i + 1).isSymbol("=")) {
                i += 2;
                t = toks.get(i);
            }
            if (t.isString() || t.kind() == Token.Kind.NUMBER) {
                out.add(t.value());
            } else if (t.is("NULL")) {
                out.add(null);
            } else {
                throw SqlServerError.unsupported("EXEC argument " + t.text());
            }
            i++;
            if (i < toks.size()) {
                if (!toks.get(i).isSymbol(",")) {
                    throw SqlServerError.syntax(toks.get(i).text());
                }
                i++;
            }
        }
        return out;
    }
}
