SELECT '${nope}' FROM orders;
