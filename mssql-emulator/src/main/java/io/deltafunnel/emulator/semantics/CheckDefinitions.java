package io.deltafunnel.emulator.semantics;

import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.Token;
import java.util.List;
import java.util.Set;

/**
 * The text of a CHECK constraint as {@code sys.check_constraints.definition} shows it. SQL Server stores a normalised
 * form of the expression: wrapped in parentheses, column names bracketed, numeric constants parenthesised, no spaces
 * around operators, keywords upper-case between single spaces ({@code CHECK (v > 0)} becomes {@code ([v]>(0))}).
 * This reproduces that form for comparisons, AND/OR/NOT, IS [NOT] NULL and LIKE; SQL Server rewrites some other
 * expressions further (BETWEEN into two comparisons, IN lists into OR chains), which the emulator does not (listed
 * in the README's differences). ALTER TABLE SWITCH matches CHECK constraints by this text.
 */
public final class CheckDefinitions {
    private static final Set<String> KEYWORDS = Set.of("AND", "OR", "NOT", "IS", "NULL", "IN", "LIKE", "BETWEEN",
            "ESCAPE");

    private CheckDefinitions() {
    }

    /** {@code group} is the parenthesised expression after CHECK, parentheses included. */
    public static String normalize(List<Token> group) {
        List<Token> body = group.size() >= 2 && group.get(0).isSymbol("(")
                && group.get(group.size() - 1).isSymbol(")") ? group.subList(1, group.size() - 1) : group;
        StringBuilder b = new StringBuilder("(");
        for (int k = 0; k < body.size(); k++) {
            Token t = body.get(k);
            boolean call = k + 1 < body.size() && body.get(k + 1).isSymbol("(");
            if (t.isSymbol("-") && k + 1 < body.size() && body.get(k + 1).kind() == Token.Kind.NUMBER
                    && (k == 0 || body.get(k - 1).kind() == Token.Kind.SYMBOL && !body.get(k - 1).isSymbol(")")
                    || body.get(k - 1).is("AND") || body.get(k - 1).is("OR"))) {
                // a negative constant: (-1); already written (-1) (a normalised definition read back): kept
                boolean wrapped = parenthesised(body, k, k + 1);
                b.append(wrapped ? "-" : "(-").append(body.get(++k).text()).append(wrapped ? "" : ")");
                continue;
            }
            switch (t.kind()) {
                case NUMBER -> b.append(parenthesised(body, k, k) ? t.text() : "(" + t.text() + ")");
                case STRING -> b.append(Identifiers.sqlLiteral(t.value()));
                case NSTRING -> b.append('N').append(Identifiers.sqlLiteral(t.value()));
                case QUOTED_ID -> b.append(Identifiers.bracket(t.value()));
                case WORD -> {
                    if (KEYWORDS.contains(t.upper())) {
                        if (b.length() > 0 && b.charAt(b.length() - 1) != ' ' && b.charAt(b.length() - 1) != '(') {
                            b.append(' ');
                        }
                        b.append(t.upper()).append(' ');
                    } else if (call) {
                        b.append(t.text().toLowerCase(java.util.Locale.ROOT));
                    } else {
                        b.append(Identifiers.bracket(t.value()));
                    }
                }
                case SYMBOL -> {
                    if (t.isSymbol(")") && b.charAt(b.length() - 1) == ' ') {
                        b.setLength(b.length() - 1);
                    }
                    b.append(t.isSymbol("!=") ? "<>" : t.text());
                }
                default -> b.append(t.text());
            }
        }
        if (b.charAt(b.length() - 1) == ' ') {
            b.setLength(b.length() - 1);
        }
        return b.append(')').toString();
    }

    /**
     * Tokens {@code from..to} stand alone in parentheses that are not a function call's, as in the normalised form
     * {@code ([v]>(0))}: SQL Server does not add a second pair when such a definition is written again.
     */
    private static boolean parenthesised(List<Token> body, int from, int to) {
        if (from < 1 || to + 1 >= body.size() || !body.get(from - 1).isSymbol("(") || !body.get(to + 1).isSymbol(")")) {
            return false;
        }
        Token before = from >= 2 ? body.get(from - 2) : null;
        return before == null || before.kind() != Token.Kind.WORD || KEYWORDS.contains(before.upper());
    }
}
