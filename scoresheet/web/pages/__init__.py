"""The pages of a match for people: log in, register, the home page, start a match, the running
sheet, enter, correct and delete a hand (with its preview), bank or end."""
