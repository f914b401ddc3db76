SELECT 1;
--  is NEL, fine;  is not
