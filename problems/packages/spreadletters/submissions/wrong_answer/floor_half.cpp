// Like the accepted order, but it believes that no letter may have more than n / 2 tiles:
// wrong when n is odd and one letter has exactly (n + 1) / 2 (even a single tile).
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
    if (count[top] > n / 2) {
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
