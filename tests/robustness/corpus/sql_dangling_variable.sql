SELECT ${ FROM orders;
