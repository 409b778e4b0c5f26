/* SPDX-License-Identifier: MIT */
/* The filter expressions of filter_cases.h. */
#include "filter_cases.h"

#define OP_TYPO "did you mean"
#define ORDER   "take a number, a date"

const dft_bad_filter dft_bad_filters[] = {
    /* Typos of operators, as people make them. */
    {"WhiteElo=>2000", OP_TYPO, "WhiteElo>=2000"},
    {"WhiteElo>=", "no value after the operator", NULL},
    /* Operators that are none. */
    {"WhiteElo=<2000", OP_TYPO, "WhiteElo<=2000"},
    {"WhiteElo==2000", OP_TYPO, "WhiteElo=2000"},
    {"WhiteElo<>2000", OP_TYPO, "WhiteElo!=2000"},
    {"WhiteElo=!2000", OP_TYPO, "WhiteElo!=2000"},
    {"WhiteElo!2000", OP_TYPO, "WhiteElo!=2000"},
    {"TimeControl^600", OP_TYPO, "TimeControl^=600"},
    {"TimeControl=^600", OP_TYPO, "TimeControl^=600"},
    {"WhiteElo >= >2000", OP_TYPO, "WhiteElo>=2000"},
    {"WhiteElo => 2000", OP_TYPO, "WhiteElo>=2000"},
    {"WhiteElo>=>=2000", OP_TYPO, "WhiteElo>=2000"},
    {"WhiteElo=>", "no such operator", NULL},
    /* No value. */
    {"WhiteElo=", "no value after the operator", NULL},
    {"WhiteElo != ", "no value after the operator", NULL},
    {"EloDiff>", "no value after the operator", NULL},
    /* No operator, no name, a name a tag cannot have. */
    {"WhiteElo", "no operator", NULL},
    {"WhiteElo ~ 3", "no operator", NULL},
    {"Bot", "no operator", NULL},
    {">=2000", "no tag name", NULL},
    {"=", "no tag name", NULL},
    {"", "no tag name", NULL},
    {"   ", "no tag name", NULL},
    {"White Elo>=2000", "letters, digits and _", "WhiteElo>=2000"},
    {"White-Elo>=2000", "letters, digits and _", "WhiteElo>=2000"},
    {"\"Event\"=x", "letters, digits and _", "Event=x"},
    /* Values an ordering cannot read. */
    {"WhiteElo>=2k", ORDER, NULL},
    {"WhiteElo>=2,000", ORDER, "WhiteElo>=2000"},
    {"WhiteElo<-", ORDER, NULL},
    {"WhiteElo>=+", ORDER, NULL},
    {"Date>=2024-01-01", ORDER, NULL},
    {"Result<1/2", ORDER, NULL},
    {"WhiteElo<\"\"", ORDER, NULL},
    /* Quotes, prefixes. */
    {"Event=\"abc", "quote is not closed", "Event=\"abc\""},
    {"Event=\"", "quote is not closed", "Event=\"\""},
    {"Event^=\"\"", "empty prefix", NULL},
    /* Derived fields. */
    {"speed=blitz", "case-sensitive", "Speed=blitz"},
    {"AVGELO>2000", "case-sensitive", "AvgElo>2000"},
    {"Speed=blits", "Speed is ultrabullet", "Speed=blitz"},
    {"Speed<Bulet", "Speed is ultrabullet", "Speed<bullet"},
    {"Speed=fast", "Speed is ultrabullet", NULL},
    {"Speed^=bl", "^= is for text", NULL},
    {"Month^=1", "^= is for text", "Month=1"},
    {"AvgElo>=high", "is a number", NULL},
    {"Year=2024.??.??", "is a number", NULL},
    {"Bot=yes", "Bot is true or false", "Bot=true"},
    {"Bot!=0", "Bot is true or false", "Bot!=false"},
    {"Bot>true", "= or != only", NULL},
};
const size_t dft_nbad_filters = sizeof dft_bad_filters / sizeof dft_bad_filters[0];

const char *const dft_good_filters[] = {
    "WhiteElo>=2000",  "WhiteElo = 2000.0", "WhiteElo=?",
    "WhiteElo!=?",     "Event>=a",          "Event=\"=x\"",
    "Event=\"\"",      "Event^=Rated",      "Date>=2024.01.01",
    "Date<2024.??.??", "UTCTime<12:00:00",  "Site=\"Lichess\"",
    "Speed>=blitz",    "Speed=BLITZ",       "Speed!=correspondence",
    "Bot=false",       "Bot!=TRUE",         "EloDiff<-100",
    "AvgElo>=1999.5",  "Year>=2024",        "Month=3",
    "BaseSeconds<60",  "Increment>0",       "EloBin=2000",
    "MinElo>1500",     "MaxElo<=2500",      " WhiteElo >= 2000 ",
};
const size_t dft_ngood_filters = sizeof dft_good_filters / sizeof dft_good_filters[0];
