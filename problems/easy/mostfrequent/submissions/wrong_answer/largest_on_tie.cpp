// Uses >= when comparing counts: the largest value wins a tie.
#include <iostream>
#include <map>

int main() {
    int n;
    std::cin >> n;
    std::map<long long, int> count;
    for (int i = 0; i < n; i++) {
        long long x;
        std::cin >> x;
        count[x]++;
    }
    long long best = 0;
    int most = 0;
    for (auto [value, c] : count)
        if (c >= most) most = c, best = value;
    std::cout << best << "\n";
}
