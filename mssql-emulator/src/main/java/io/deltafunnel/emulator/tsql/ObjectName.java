package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import java.util.ArrayList;
import java.util.List;

/** A schema-qualified object name read from tokens: {@code [db].[schema].[name]}, {@code schema.name}, {@code name}. */
public final class ObjectName {
    public final String schema;
    public final String name;
    /** Index of the first token after the name. */
    public final int next;

    private ObjectName(String schema, String name, int next) {
        this.schema = schema;
        this.name = name;
        this.next = next;
    }

    public static ObjectName at(List<Token> toks, int i) throws SqlServerError {
        if (i >= toks.size() || !toks.get(i).isIdentifier()) {
            throw SqlServerError.syntax(i < toks.size() ? toks.get(i).text() : "end of statement");
        }
        List<String> parts = new ArrayList<>();
        parts.add(toks.get(i).value());
        int j = i + 1;
        while (j < toks.size() && toks.get(j).isSymbol(".")) {
            if (j + 1 < toks.size() && toks.get(j + 1).isSymbol(".")) {
                parts.add("");
                j++;
                continue;
            }
            if (j + 1 >= toks.size() || !toks.get(j + 1).isIdentifier()) {
                break;
            }
            parts.add(toks.get(j + 1).value());
            j += 2;
        }
        if (parts.size() > 3) {
            throw ErrorCatalog.TOO_MANY_NAME_PREFIXES.error(
                    "The object name contains more than the maximum number of prefixes.");
        }
        String name = parts.get(parts.size() - 1);
        String schema = parts.size() >= 2 ? parts.get(parts.size() - 2) : "";
        return new ObjectName(schema.isEmpty() ? "dbo" : schema, name, j);
    }

    String bracketed() {
        return Identifiers.bracket(schema) + "." + Identifiers.bracket(name);
    }

    String h2Name() {
        return Identifiers.h2Quote(schema) + "." + Identifiers.h2Quote(name);
    }

    @Override
    public String toString() {
        return schema + "." + name;
    }
}
