// BOJ 16571, solved by memoised minimax: a judge-style peer for benches/stress_figures.py.
#include <cstdio>
#include <cstring>
static const int L[8][3] = {{0,1,2},{3,4,5},{6,7,8},{0,3,6},{1,4,7},{2,5,8},{0,4,8},{2,4,6}};
static signed char memo[19683];
static bool won(const int *b, int m) {
    for (auto &l : L) if (b[l[0]] == m && b[l[1]] == m && b[l[2]] == m) return true;
    return false;
}
static int value(int *b, int me) {
    int you = 3 - me;
    if (won(b, you)) return -1;
    int c = 0; for (int i = 0; i < 9; i++) c = c * 3 + b[i];
    if (memo[c] != 2) return memo[c];
    int best = -2;
    for (int i = 0; i < 9; i++) if (!b[i]) { b[i] = me; int v = -value(b, you); b[i] = 0; if (v > best) best = v; }
    if (best == -2) best = 0;
    return memo[c] = best;
}
int main() {
    memset(memo, 2, sizeof memo);
    int b[9], ones = 0, twos = 0;
    for (int i = 0; i < 9; i++) { if (scanf("%d", &b[i]) != 1) return 1; ones += b[i] == 1; twos += b[i] == 2; }
    puts(value(b, ones == twos ? 1 : 2) > 0 ? "W" : value(b, ones == twos ? 1 : 2) == 0 ? "D" : "L");
}
