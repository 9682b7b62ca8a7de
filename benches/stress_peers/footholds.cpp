// KAKAO 2022 disappearing footholds by plain backtracking, reading the JSON lines of
// `perfectplay footholds`: a judge-style peer for benches/stress_figures.py.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>
using namespace std;

static int R, C, g[8][8];

// (does the player at (mr, mc), to move, win; moves played from here)
static pair<bool, int> play(int mr, int mc, int yr, int yc) {
    if (!g[mr][mc]) return {false, 0};
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int win = -1, lose = -1;
    for (int d = 0; d < 4; d++) {
        int r = mr + dr[d], c = mc + dc[d];
        if (r < 0 || c < 0 || r >= R || c >= C || !g[r][c]) continue;
        g[mr][mc] = 0;
        auto [theyWin, moves] = play(yr, yc, r, c);
        g[mr][mc] = 1;
        moves++;
        if (!theyWin) win = win < 0 ? moves : min(win, moves);
        else lose = max(lose, moves);
    }
    if (win >= 0) return {true, win};
    return {false, max(lose, 0)};
}

int main() {
    string line;
    while (getline(cin, line)) {
        if (line.find('{') == string::npos) continue;
        // {"board": [[1, 0], [1, 1]], "aloc": [r, c], "bloc": [r, c]}: the board's rows are
        // the '[' inside "[[...]]"; every number in order is the cells, then aloc, then bloc.
        size_t open = line.find("[["), close = line.find("]]");
        R = (int)count(line.begin() + open + 1, line.begin() + close + 1, '[');
        vector<int> nums;
        for (size_t i = 0; i < line.size(); i++) {
            if (!isdigit((unsigned char)line[i])) continue;
            int v = 0;
            while (i < line.size() && isdigit((unsigned char)line[i])) v = v * 10 + (line[i++] - '0');
            nums.push_back(v);
        }
        int cells = (int)nums.size() - 4;
        C = cells / R;
        for (int k = 0; k < cells; k++) g[k / C][k % C] = nums[k];
        printf("%d\n", play(nums[cells], nums[cells + 1], nums[cells + 2], nums[cells + 3]).second);
    }
}
