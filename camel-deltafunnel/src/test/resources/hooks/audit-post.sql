-- postSql read from the classpath (SqlHookScenarios): one audit row per run, written with the load.
INSERT INTO [dbo].[resourceClasspathHook_audit] ([hook], [run_id], [target], [n])
VALUES (@deltafunnel_hook, @deltafunnel_run_id, @deltafunnel_target, @deltafunnel_rows);
