package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.semantics.SqlServerError;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL Server repeats a name in its messages as the statement wrote it ({@code Invalid column name 'Score'.});
 * H2, which folds unquoted identifiers to upper case, reports {@code SCORE}. This puts the statement's own spelling
 * back into the messages that name an object or column (207, 208, 2714, 2760, 195), matching the name
 * case-insensitively against the statement's identifiers. Brackets are not repeated (SQL Server does not), a
 * multipart object name is repeated with all the parts the statement wrote ({@code dbo.Missing}).
 */
public final class NamesAsWritten {
    private static final Pattern QUOTED = Pattern.compile("'([^']*)'");
    private static final Pattern DOUBLE_QUOTED = Pattern.compile("\"([^\"]*)\"");

    private NamesAsWritten() {
    }

    /** {@code e} with the name in its message spelt as in {@code toks}; {@code e} itself when nothing changes. */
    public static SqlServerError respell(SqlServerError e, List<Token> toks) {
        if (toks == null || toks.isEmpty()) {
            return e;
        }
        String msg = e.getMessage();
        Matcher m;
        boolean objectName;
        switch (e.number()) {
            case 207: // Invalid column name 'c'.
            case 195: // 'f' is not a recognized built-in function name.
            case 2714: // There is already an object named 't' in the database. (no schema)
                m = QUOTED.matcher(msg);
                objectName = false;
                break;
            case 208: // Invalid object name 'dbo.t'.
                m = QUOTED.matcher(msg);
                objectName = true;
                break;
            case 2760: // The specified schema name "s" either does not exist ...
                m = DOUBLE_QUOTED.matcher(msg);
                objectName = false;
                break;
            default:
                return e;
        }
        if (!m.find()) {
            return e;
        }
        String reported = m.group(1);
        String written = objectName ? objectAsWritten(reported, toks) : identifierAsWritten(reported, toks);
        if (written == null || written.equals(reported)) {
            return e;
        }
        String fixed = msg.substring(0, m.start(1)) + written + msg.substring(m.end(1));
        SqlServerError out = e.withMessage(fixed);
        out.setStackTrace(e.getStackTrace());
        return out;
    }

    /** The first identifier of the statement equal to {@code name} ignoring case, as written (no brackets). */
    private static String identifierAsWritten(String name, List<Token> toks) {
        for (Token t : toks) {
            if (t.isIdentifier() && t.value().equalsIgnoreCase(name)) {
                return t.value();
            }
        }
        return null;
    }

    /**
     * The multipart name of the statement whose last part is the last part of {@code name}, as written: every part
     * the statement wrote ({@code dbo.t}, {@code t}), without brackets.
     */
    private static String objectAsWritten(String name, List<Token> toks) {
        String last = name.substring(name.lastIndexOf('.') + 1);
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (!t.isIdentifier() || !t.value().equalsIgnoreCase(last)) {
                continue;
            }
            if (i + 1 < toks.size() && toks.get(i + 1).isSymbol(".")) {
                continue; // a prefix part (schema) spelt like the object
            }
            StringBuilder sb = new StringBuilder(t.value());
            int j = i;
            while (j >= 2 && toks.get(j - 1).isSymbol(".") && toks.get(j - 2).isIdentifier()) {
                sb.insert(0, toks.get(j - 2).value() + ".");
                j -= 2;
            }
            return sb.toString();
        }
        return null;
    }
}
