#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(std::string s) {
    const std::string keys = "22233344455566677778889999";
    for (char &c : s) c = keys[c - 'a'];
    return s;
}

int main() {
    std::string s;
    while (std::getline(std::cin, s)) std::cout << solve(s) << "\n";
}
