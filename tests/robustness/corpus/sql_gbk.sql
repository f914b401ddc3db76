-- ¶©µ¥
SELECT 1;
