SELECT 'abc FROM orders;
