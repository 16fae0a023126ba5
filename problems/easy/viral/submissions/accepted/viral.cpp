#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(long long n) {
    long long shown = 5, likes = 0;
    for (long long day = 0; day < n; day++) {
        long long liked = shown / 2;
        likes += liked;
        shown = liked * 3;
    }
    return std::to_string(likes);
}

int main() {
    long long n;
    std::cin >> n;
    std::cout << solve(n) << "\n";
}
