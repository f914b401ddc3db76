SELECT "abc FROM orders;
