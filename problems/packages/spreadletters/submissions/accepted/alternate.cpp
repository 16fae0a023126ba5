// The most frequent letter takes places 1, 3, 5, ... first; then the other letters, in
// alphabetical order, continue on the odd places and then fill the even ones. Equal
// letters end up at least two places apart as long as no letter has more than (n + 1) / 2
// tiles; otherwise no order exists.
#include <algorithm>
#include <array>
#include <iostream>
#include <string>

int main() {
    std::string s;
    std::cin >> s;
    const int n = static_cast<int>(s.size());
    std::array<int, 26> count{};
    for (char c : s) count[c - 'a']++;
    int top = static_cast<int>(std::max_element(count.begin(), count.end()) - count.begin());
    if (count[top] > (n + 1) / 2) {
        std::cout << "IMPOSSIBLE\n";
        return 0;
    }
    std::string t(n, '?');
    int place = 0;
    auto lay = [&](int letter) {
        for (int k = 0; k < count[letter]; k++) {
            t[place] = static_cast<char>('a' + letter);
            place += 2;
            if (place >= n) place = 1;
        }
    };
    lay(top);
    for (int letter = 0; letter < 26; letter++) {
        if (letter != top) lay(letter);
    }
    std::cout << t << "\n";
}
