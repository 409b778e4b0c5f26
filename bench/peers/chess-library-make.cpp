/* SPDX-License-Identifier: MIT */
// Make/unmake (or givesCheck) cost of Disservin's chess-library
// (https://github.com/Disservin/chess-library), for comparing with dirfill's copy-make (or
// df_gives_check) on the same moves (bench/peers/dirfill-make.c reads the same file). Build:
//   g++ -std=c++17 -O3 -march=native -DNDEBUG -I CHESS_LIBRARY/include chess-library-make.cpp
// Run: cl_make FENS [REPS [check]]: every legal move of every position (one FEN a line) made
// and unmade, its Zobrist key folded in (with "check": givesCheck asked, the checking moves
// counted, as dirfill-make.c does); prints the median ns per move over REPS (default 11) and
// the number of moves.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>
#include "chess.hpp"
using namespace chess;
int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    std::ifstream in(argv[1]);
    const int reps = argc > 2 ? std::atoi(argv[2]) : 11;
    const bool check = argc > 3 && std::string(argv[3]) == "check";
    std::vector<Board> boards;
    std::vector<Movelist> moves;
    size_t total = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        boards.emplace_back(line);
        moves.emplace_back();
        movegen::legalmoves(moves.back(), boards.back());
        total += moves.back().size();
    }
    std::vector<double> ns;
    uint64_t fold = 0;
    for (int r = 0; r < reps; r++) {
        const auto t0 = std::chrono::steady_clock::now();
        for (size_t i = 0; i < boards.size(); i++) {
            Board &b = boards[i];
            for (const auto &m : moves[i]) {
                if (check) {
                    fold += b.givesCheck(m) != CheckType::NO_CHECK;
                    continue;
                }
                b.makeMove(m);
                fold = (fold << 1 | fold >> 63) ^ b.hash();
                b.unmakeMove(m);
            }
        }
        ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0)
                         .count() /
                     (double)total);
    }
    std::sort(ns.begin(), ns.end());
    std::printf("%.2f ns per move, %zu moves, fold %016llx\n", ns[ns.size() / 2], total,
                (unsigned long long)fold);
}
