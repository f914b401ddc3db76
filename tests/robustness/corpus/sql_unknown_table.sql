SELECT 1 FROM nowhere;
