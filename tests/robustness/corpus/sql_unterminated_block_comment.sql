SELECT order_id FROM orders /* never closed
