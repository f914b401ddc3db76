SELECT `abc FROM orders;
