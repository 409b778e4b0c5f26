/* SPDX-License-Identifier: MIT */
// The public header compiles as C++17 with -Wall -Werror, and links.
#include <dirfill.h>

#include <cstdio>

int main()
{
    df_rays r;
    df_slider_rays(&r, df_square_bb(DF_D4), 0, ~df_square_bb(DF_D4));
    std::printf("%d\n", df_popcount(r.r[DF_N]));
    return df_popcount(r.r[DF_N]) == 4 ? 0 : 1;
}
