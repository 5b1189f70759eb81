package io.deltafunnel.mssql.session;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.SqlChannel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's SQL hooks ({@code preSql}, {@code postSql}; docs/producer.md "SQL hooks"): T-SQL the run executes on
 * its own channel, in the transaction the caller has open. A hook's text is split into batches at lines holding only
 * {@code GO} (as sqlcmd does); each batch runs as
 * {@code EXEC sp_executesql @P0, N'@deltafunnel_hook nvarchar(10), ...', @deltafunnel_hook = @P1, ...}: the text
 * and every value are bound parameters, nothing is concatenated into SQL, and the batch sees the run's values as the
 * T-SQL variables of {@link #DECLARATIONS}. Every result of every statement is read, so that any statement's error
 * fails the hook ({@link HookFailedException}: the hook, the batch's position, the SQL Server error number and
 * line, and what the run had accepted). The caller owns the channel and the transaction. Immutable.
 */
public final class SqlHooks {

    private static final Logger LOG = LoggerFactory.getLogger(SqlHooks.class);

    /** The variables every hook batch sees, as sp_executesql's parameter definitions. */
    public static final String DECLARATIONS = "@deltafunnel_hook nvarchar(10), @deltafunnel_run_id nvarchar(4000),"
            + " @deltafunnel_target nvarchar(300), @deltafunnel_schema nvarchar(128), @deltafunnel_table nvarchar(128),"
            + " @deltafunnel_write_mode nvarchar(20), @deltafunnel_rows bigint, @deltafunnel_batches bigint,"
            + " @deltafunnel_load_id nvarchar(4000)";

    private static final String CALL = "EXEC sp_executesql ?, N'" + DECLARATIONS + "', @deltafunnel_hook = ?,"
            + " @deltafunnel_run_id = ?, @deltafunnel_target = ?, @deltafunnel_schema = ?, @deltafunnel_table = ?,"
            + " @deltafunnel_write_mode = ?, @deltafunnel_rows = ?, @deltafunnel_batches = ?, @deltafunnel_load_id = ?";

    /** A line holding only GO (any case, surrounding blanks): the batch separator of sqlcmd and SSMS. */
    private static final Pattern GO = Pattern.compile("^[ \\t]*[Gg][Oo][ \\t]*$");

    /** Which hook. */
    public enum Hook {
        PRE_SQL("preSql"), POST_SQL("postSql");

        private final String option;

        Hook(String option) {
            this.option = option;
        }

        /** The option's name, also the value of {@code @deltafunnel_hook}. */
        public String option() {
            return option;
        }
    }

    /** One batch of a hook: its text and the line of the hook it starts on (1-based). */
    record Batch(String sql, int firstLine) {
    }

    /**
     * What the run tells its hooks: the run (or, for a sharded load's final step, the run running it), the resolved
     * target, the rows and batches SQL Server has accepted for it so far (null when not known), and the sharded
     * load's id (null for an ordinary run).
     */
    public record RunValues(String runId, TableName target, WriteMode writeMode, Long rows, Long batches,
            String loadId) {
    }

    private final String preSql;
    private final String postSql;

    private SqlHooks(String preSql, String postSql) {
        this.preSql = preSql;
        this.postSql = postSql;
    }

    /** The settings' hooks. */
    public static SqlHooks of(BulkLoadSettings settings) {
        BulkLoadSettings.Hooks h = settings.hooks();
        return new SqlHooks(h.preSql(), h.postSql());
    }

    /** True when {@code hook} is set. */
    public boolean has(Hook hook) {
        return text(hook) != null;
    }

    private String text(Hook hook) {
        return hook == Hook.PRE_SQL ? preSql : postSql;
    }

    /**
     * Runs {@code hook} (nothing when it is not set) on {@code channel}, in its open transaction.
     *
     * @param who     names the run in log lines (e.g. "Run 1234")
     * @param context the run's failure context now (table, outcome, accepted statistics)
     * @throws HookFailedException when a statement of the hook fails
     */
    public void run(Hook hook, SqlChannel channel, RunValues values, String who,
            Supplier<BulkLoadException.Context> context) {
        String text = text(hook);
        if (text == null) {
            return;
        }
        List<Batch> batches = batches(text);
        for (int i = 0; i < batches.size(); i++) {
            Batch b = batches.get(i);
            try {
                channel.executeAll(CALL, b.sql(), hook.option(), values.runId(), values.target().toString(),
                        values.target().schema(), values.target().table(),
                        values.writeMode().name().toLowerCase(Locale.ROOT), values.rows(), values.batches(),
                        values.loadId());
            } catch (SQLException e) {
                int line = channel.errorLine(e);
                throw new HookFailedException(hook, i + 1, batches.size(), b.firstLine(),
                        line > 0 ? b.firstLine() + line - 1 : 0, e,
                        context.get().withErrorNumber(SqlServerErrors.errorNumber(e)));
            }
        }
        LOG.debug("{}: {} ran ({} batch(es), {} rows so far)", who, hook.option(), batches.size(), values.rows());
    }

    /** {@code text} split at GO lines; blank batches are left out. */
    static List<Batch> batches(String text) {
        List<Batch> out = new ArrayList<>();
        String[] lines = text.split("\r\n|\n|\r", -1);
        List<String> cur = new ArrayList<>();
        int first = 1;
        for (int i = 0; i < lines.length; i++) {
            if (GO.matcher(lines[i]).matches()) {
                add(out, cur, first);
                cur.clear();
                first = i + 2;
            } else {
                cur.add(lines[i]);
            }
        }
        add(out, cur, first);
        return out;
    }

    private static void add(List<Batch> out, List<String> lines, int firstLine) {
        String sql = String.join("\n", lines);
        if (!sql.isBlank()) {
            out.add(new Batch(sql, firstLine));
        }
    }
}
