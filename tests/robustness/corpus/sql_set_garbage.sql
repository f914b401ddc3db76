SET = ;
