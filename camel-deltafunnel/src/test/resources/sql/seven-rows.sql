-- used by DeltaFunnelQueryReferenceTest
SELECT i::INTEGER AS id, 'q' || i AS name
FROM range(0, 7) t(i)
ORDER BY i
